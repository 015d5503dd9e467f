// RunDataView: the Events pane. The viewed run's history from the registry,
// then each event as it comes, live or polled, listed once; the first line
// counts them.
#include "window/run_data_view.h"

#include "registry/registry.h"

#include <QDateTime>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>

namespace savepoint::ui {

namespace {
// A session has at most one event of a kind at a step: the same event reaches
// the pane live (before the registry stamps it) and from a registry poll.
QString eventKey(const savepoint::EventRow& e) {
    return QString::fromLatin1(to_string(e.kind)) + QLatin1Char('|') + QString::number(e.session_id.value_or(0)) +
           QLatin1Char('|') + QString::number(e.global_step) + QLatin1Char('|') + QString::fromStdString(e.message);
}
}  // namespace

void RunDataView::logEvent(const savepoint::EventRow& e) {
    if (e.run_id == events_shown_for_) {
        if (shown_keys_.contains(eventKey(e))) return;  // listed already
        shown_keys_.insert(eventKey(e));
        updateEventsHeader();
    }
    // Live events are reported before the I/O thread stamps them.
    const QDateTime at =
        e.created_at > 0 ? QDateTime::fromMSecsSinceEpoch(qint64(e.created_at * 1000)) : QDateTime::currentDateTime();
    // Today's events by time alone, older ones with their date.
    const QString stamp = at.date() == QDate::currentDate() ? at.toString(QStringLiteral("HH:mm:ss"))
                                                            : at.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    log_->appendPlainText(stamp + QStringLiteral("  [") + QString::fromLatin1(to_string(e.kind)) +
                          QStringLiteral("] ") + QString::fromStdString(e.message));
}

// The pane's first line counts the run's events listed below it, live ones included.
void RunDataView::updateEventsHeader() {
    if (events_header_.isEmpty()) return;
    QTextBlock first = log_->document()->firstBlock();
    if (first.text() != events_header_) return;  // scrolled out of the pane's limit
    events_header_ =
        tr("Run “%1”: %n event(s) recorded in the registry", nullptr, int(shown_keys_.size())).arg(events_run_name_);
    QTextCursor cur(first);
    cur.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    cur.insertText(events_header_);
}

void RunDataView::showEventHistory(std::int64_t run_id) {
    if (!reg_ || run_id == events_shown_for_) return;
    std::vector<savepoint::EventRow> events;
    std::optional<savepoint::RunRow> run;
    try {
        run = reg_->run_by_id(run_id);
        events = reg_->events(run_id);
    } catch (const std::exception& e) {
        showError(tr("Cannot read the registry: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    if (!run) return;
    log_->clear();
    events_shown_for_ = 0;
    shown_keys_.clear();
    events_run_name_ = QString::fromStdString(run->name);
    events_header_ = tr("Run “%1”: %n event(s) recorded in the registry", nullptr, 0).arg(events_run_name_);
    log_->appendPlainText(events_header_);
    events_shown_for_ = run_id;
    for (const auto& e : events) logEvent(e);
}

}  // namespace savepoint::ui
