#include "window/system_panel.h"

#include "plot/qcp.h"
#include "registry/registry.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <cmath>

namespace savepoint::ui {
namespace {

constexpr int kPlotPoints = 3600;  // an hour of samples a plot; older ones scroll off

QString bytes(std::int64_t b) {
    const double v = static_cast<double>(b);
    if (v >= 1024.0 * 1024 * 1024)
        return SystemPanel::tr("%1 GiB").arg(QLocale().toString(v / (1024.0 * 1024 * 1024), 'f', 2));
    return SystemPanel::tr("%1 MiB").arg(QLocale().toString(v / (1024.0 * 1024), 'f', 1));
}

QString number(double v, int decimals) {
    return std::isfinite(v) ? QLocale().toString(v, 'f', decimals) : QStringLiteral("–");
}

}  // namespace

SystemPanel::SystemPanel(QWidget* parent) : QWidget(parent) {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(6, 6, 6, 6);
    gpu_status_ = new QLabel(this);
    gpu_status_->setObjectName(QStringLiteral("gpuStatus"));
    gpu_status_->setWordWrap(true);
    outer->addWidget(gpu_status_);

    auto* process = new QGroupBox(tr("This process and machine"), this);
    auto* f1 = new QFormLayout(process);
    addFigure(f1, QStringLiteral("cpu"), tr("CPU"),
              tr("The training process's CPU time over the last second; 100 % is one core."));
    addFigure(f1, QStringLiteral("rss"), tr("Memory"), tr("The training process's resident memory."));
    addFigure(f1, QStringLiteral("available"), tr("Available memory"),
              tr("Memory the machine can still give without swapping."));
    addFigure(f1, QStringLiteral("written"), tr("Written"),
              tr("Bytes the training process has written to storage: checkpoints and the registry."));
    addFigure(f1, QStringLiteral("disk"), tr("Free disk"),
              tr("Free space on the file system of the home, where checkpoints go."));
    outer->addWidget(process);
    auto* p1 = addPlot(QStringLiteral("cpuPlot"), tr("CPU %"));
    auto* p2 = addPlot(QStringLiteral("memoryPlot"), tr("Memory (MiB)"));
    outer->addWidget(p1);
    outer->addWidget(p2);

    auto* gpu = new QGroupBox(tr("GPU"), this);
    auto* f2 = new QFormLayout(gpu);
    gpu_note_ = new QLabel(this);
    gpu_note_->setWordWrap(true);
    f2->addRow(gpu_note_);
    addFigure(f2, QStringLiteral("gpu_util"), tr("Utilisation"),
              tr("Share of the last sample period the GPU was running kernels."));
    addFigure(f2, QStringLiteral("gpu_mem"), tr("GPU memory"),
              tr("Memory in use on the GPU (every process), and its total."));
    addFigure(f2, QStringLiteral("gpu_temp"), tr("Temperature"), tr("The GPU's core temperature."));
    addFigure(f2, QStringLiteral("gpu_power"), tr("Power"), tr("The board's power draw."));
    addFigure(f2, QStringLiteral("gpu_clock"), tr("SM clock"),
              tr("The streaming multiprocessors' clock: lower than usual means throttling."));
    addFigure(f2, QStringLiteral("throttle"), tr("Throttling"),
              tr("Why the GPU holds its clocks down, as the driver says it (power cap, heat...)."));
    outer->addWidget(gpu);
    auto* p3 = addPlot(QStringLiteral("gpuUtilPlot"), tr("GPU %"));
    auto* p4 = addPlot(QStringLiteral("gpuMemoryPlot"), tr("GPU memory (MiB)"));
    outer->addWidget(p3);
    outer->addWidget(p4);
    outer->addStretch(1);
    setGpuStatus(QString());
    clear();
    poll_.setInterval(1000);
    connect(&poll_, &QTimer::timeout, this, &SystemPanel::refresh);
}

QLabel* SystemPanel::addFigure(QFormLayout* form, const QString& key, const QString& name, const QString& help) {
    auto* label = new QLabel(name, this);
    auto* value = new QLabel(this);
    value->setObjectName(key);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setToolTip(help);
    value->setToolTip(help);
    form->addRow(label, value);
    figures_.append(value);
    return value;
}

QCustomPlot* SystemPanel::addPlot(const QString& key, const QString& name) {
    auto* plot = new QCustomPlot(this);
    plot->setObjectName(key);
    // Tall enough for its rotated axis label in the small font; no taller, the panel stays compact.
    plot->setMinimumHeight(96);
    plot->setMaximumHeight(110);
    plot->addGraph();
    plot->graph(0)->setPen(QPen(palette().color(QPalette::Highlight), 1.5));
    plot->xAxis->setTickLabels(false);
    plot->yAxis->setLabel(name);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    plot->yAxis->setLabelFont(small);
    plot->yAxis->setTickLabelFont(small);
    plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msBottom);
    plot->axisRect()->setMargins(QMargins(0, 4, 6, 0));
    plot->setToolTip(tr("%1 over the run's sessions, a sample a second").arg(name));
    plots_.append(plot);
    return plot;
}

void SystemPanel::setGpuStatus(const QString& text) {
    gpu_status_->setText(text.isEmpty() ? QString() : tr("GPU: %1").arg(text));
    gpu_status_->setVisible(!text.isEmpty());
}

QString SystemPanel::gpuStatus() const { return gpu_status_->text(); }

QString SystemPanel::figure(const QString& name) const {
    for (auto* f : figures_)
        if (f->objectName() == name) return f->text();
    return {};
}

void SystemPanel::clear() {
    samples_ = 0;
    last_wall_ = 0;
    origin_ = 0;
    for (auto* f : figures_) f->setText(QStringLiteral("–"));
    for (auto* p : plots_) {
        p->graph(0)->data()->clear();
        p->replot();
    }
    gpu_note_->setText(tr("No samples yet: telemetry is taken while a run trains."));
}

void SystemPanel::showRun(std::int64_t run_id) {
    if (run_id != run_) {
        run_ = run_id;
        clear();
    }
    refresh();
    if (run_ != 0)
        poll_.start();
    else
        poll_.stop();
}

void SystemPanel::refresh() {
    if (!reg_ || run_ == 0) return;
    std::vector<savepoint::TelemetrySample> rows;
    try {
        rows = reg_->telemetry_since(run_, last_wall_);
    } catch (const std::exception&) {
        return;  // a busy or damaged registry: the Events pane says so through the other views
    }
    addSamples(rows);
}

void SystemPanel::addSamples(const std::vector<savepoint::TelemetrySample>& rows) {
    if (rows.empty()) return;
    if (samples_ == 0) origin_ = rows.front().wall_time;
    for (const auto& s : rows) {
        const double x = s.wall_time - origin_;
        plots_[0]->graph(0)->addData(x, s.cpu_percent);
        plots_[1]->graph(0)->addData(x, static_cast<double>(s.rss_bytes) / (1024.0 * 1024));
        if (s.gpu) {
            plots_[2]->graph(0)->addData(x, s.gpu->util_percent);
            plots_[3]->graph(0)->addData(x, static_cast<double>(s.gpu->mem_used_bytes) / (1024.0 * 1024));
        }
        last_wall_ = std::max(last_wall_, s.wall_time);
    }
    samples_ += rows.size();
    for (auto* p : plots_) {
        auto data = p->graph(0)->data();
        if (data->size() > kPlotPoints) data->removeBefore((data->end() - kPlotPoints)->key);
        p->rescaleAxes();
        p->yAxis->setRangeLower(0);
        p->replot(QCustomPlot::rpQueuedReplot);
    }
    const auto& s = rows.back();
    const auto set = [this](const char* key, const QString& text) {
        for (auto* f : figures_)
            if (f->objectName() == QLatin1String(key)) f->setText(text);
    };
    set("cpu", tr("%1 %").arg(number(s.cpu_percent, 0)));
    set("rss", bytes(s.rss_bytes));
    set("available", bytes(s.mem_available_bytes));
    set("written", bytes(s.written_bytes));
    set("disk", bytes(s.disk_free_bytes));
    if (!s.gpu) {
        gpu_note_->setText(tr("No GPU readings: the run trains on the CPU, or this machine has no NVIDIA driver."));
        for (const char* k : {"gpu_util", "gpu_mem", "gpu_temp", "gpu_power", "gpu_clock", "throttle"})
            set(k, QStringLiteral("–"));
        return;
    }
    const auto& g = *s.gpu;
    gpu_note_->setText(QString());
    set("gpu_util", tr("%1 %").arg(number(g.util_percent, 0)));
    set("gpu_mem", tr("%1 of %2").arg(bytes(g.mem_used_bytes), bytes(g.mem_total_bytes)));
    set("gpu_temp", tr("%1 °C").arg(number(g.temp_c, 0)));
    set("gpu_power", tr("%1 W").arg(number(g.power_w, 1)));
    set("gpu_clock", tr("%1 MHz").arg(number(g.sm_clock_mhz, 0)));
    QStringList reasons;
    for (const auto& r : savepoint::throttle_reason_names(g.throttle)) reasons << QString::fromStdString(r);
    set("throttle", reasons.isEmpty() ? tr("none") : reasons.join(QStringLiteral(", ")));
}

}  // namespace savepoint::ui
