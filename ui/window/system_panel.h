// The System panel: the viewed run's telemetry, a sample a second while it
// trains (platform/telemetry_sampler.h): the process's CPU and memory, the
// machine's available memory, the home's free disk and, with an NVIDIA driver,
// the training GPU, as figures and small live plots. It reads the registry
// itself (Registry::telemetry) once a second, so a run trained here, by the CLI
// or on another machine's home reads the same. GUI thread only.
#pragma once

#include "platform/telemetry_sample.h"

#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCustomPlot;
class QFormLayout;
class QLabel;

namespace savepoint {
class Registry;
}

namespace savepoint::ui {

class SystemPanel : public QWidget {
    Q_OBJECT
public:
    explicit SystemPanel(QWidget* parent = nullptr);

    // `reg` may be null (no registry): the panel stays empty.
    void setRegistry(savepoint::Registry* reg) { reg_ = reg; }
    // The machine's GPU as NVML names it, or why there is none ("no NVIDIA driver").
    void setGpuStatus(const QString& text);
    QString gpuStatus() const;
    // Shows run `run_id` (0: none): every sample the registry has, then new ones each second.
    void showRun(std::int64_t run_id);
    // Reads the viewed run's samples taken since the last read.
    void refresh();
    // Adds samples (from refresh), in the order they were taken.
    void addSamples(const std::vector<savepoint::TelemetrySample>& samples);
    std::size_t sampleCount() const { return samples_; }
    // The figures' texts, for tests: "cpu", "rss", "available", "disk", "written", "gpu_util",
    // "gpu_mem", "gpu_temp", "gpu_power", "gpu_clock", "throttle".
    QString figure(const QString& name) const;

private:
    QLabel* addFigure(QFormLayout* form, const QString& key, const QString& name, const QString& help);
    QCustomPlot* addPlot(const QString& key, const QString& name);
    void clear();

    savepoint::Registry* reg_ = nullptr;
    std::int64_t run_ = 0;
    double last_wall_ = 0;  // the newest sample read
    double origin_ = 0;     // wall time of the first sample shown: the plots' zero
    std::size_t samples_ = 0;
    QLabel* gpu_status_;
    QLabel* gpu_note_;  // why the GPU rows are empty
    QList<QLabel*> figures_;
    QList<QCustomPlot*> plots_;  // cpu, memory, gpu util, gpu memory
    QTimer poll_;
};

}  // namespace savepoint::ui
