<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>CsvExport</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>Dismiss</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::CheckpointTableModel</name>
    <message>
        <source>Remote</source>
        <translation>Remote</translation>
    </message>
    <message>
        <source>ETag %1</source>
        <translation>ETag %1</translation>
    </message>
    <message>
        <source>upload failed</source>
        <translation>upload failed</translation>
    </message>
    <message>
        <source>in S3</source>
        <translation>in S3</translation>
    </message>
    <message>
        <source>uploading</source>
        <translation>uploading</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>saved</translation>
    </message>
    <message>
        <source>writing</source>
        <translation>writing</translation>
    </message>
    <message>
        <source>deleting</source>
        <translation>deleting</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>deleted</translation>
    </message>
    <message>
        <source>damaged (corrupt)</source>
        <translation>damaged (corrupt)</translation>
    </message>
    <message>
        <source>damaged (file missing)</source>
        <translation>damaged (file missing)</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>verified</source>
        <translation>verified</translation>
    </message>
    <message>
        <source>damaged (checksum)</source>
        <translation>damaged (checksum)</translation>
    </message>
    <message>
        <source>head</source>
        <translation>head</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>pinned</translation>
    </message>
    <message>
        <source>This checkpoint is damaged and cannot be resumed from.</source>
        <translation>This checkpoint is damaged and cannot be resumed from.</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoch</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Global step</translation>
    </message>
    <message>
        <source>Saved at</source>
        <translation>Saved at</translation>
    </message>
    <message>
        <source>Train loss</source>
        <translation>Train loss</translation>
    </message>
    <message>
        <source>Train acc.</source>
        <translation>Train acc.</translation>
    </message>
    <message>
        <source>Val. loss</source>
        <translation>Val. loss</translation>
    </message>
    <message>
        <source>Val. acc.</source>
        <translation>Val. acc.</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Size</translation>
    </message>
    <message>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>Branch</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>Head</translation>
    </message>
    <message>
        <source>Pinned</source>
        <translation>Pinned</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::ComparisonPlot</name>
    <message>
        <source>Loss</source>
        <translation>Loss</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Accuracy</translation>
    </message>
    <message>
        <source>validation (per epoch)</source>
        <translation>validation (per epoch)</translation>
    </message>
    <message>
        <source>%1, branch %2</source>
        <translation>%1, branch %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::ComparisonTableModel</name>
    <message>
        <source>epoch %1, global step %2, branch %3</source>
        <translation>epoch %1, global step %2, branch %3</translation>
    </message>
    <message>
        <source>epoch %1, global step %2</source>
        <translation>epoch %1, global step %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 of %2</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <source>What differs</source>
        <translation>What differs</translation>
    </message>
    <message>
        <source>%1 differs</source>
        <translation>%1 differs</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>Steps</translation>
    </message>
    <message>
        <source>Final val. loss</source>
        <translation>Final val. loss</translation>
    </message>
    <message>
        <source>Final val. acc.</source>
        <translation>Final val. acc.</translation>
    </message>
    <message>
        <source>Best val. loss</source>
        <translation>Best val. loss</translation>
    </message>
    <message>
        <source>Best val. acc.</source>
        <translation>Best val. acc.</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::EventMarkers</name>
    <message>
        <source>another device: other bits from here</source>
        <translation>another device: other bits from here</translation>
    </message>
    <message>
        <source>GPU throttled</source>
        <translation>GPU throttled</translation>
    </message>
    <message>
        <source>low disk</source>
        <translation>low disk</translation>
    </message>
    <message>
        <source>worker lost</source>
        <translation>worker lost</translation>
    </message>
    <message>
        <source>worker %1 lost</source>
        <translation>worker %1 lost</translation>
    </message>
    <message>
        <source>worker %1 lost → job restarted from checkpoint #%2</source>
        <translation>worker %1 lost → job restarted from checkpoint #%2</translation>
    </message>
    <message>
        <source>worker lost → job restarted from checkpoint #%1</source>
        <translation>worker lost → job restarted from checkpoint #%1</translation>
    </message>
    <message>
        <source>worker lost → job restarted</source>
        <translation>worker lost → job restarted</translation>
    </message>
    <message>
        <source>crash</source>
        <translation>crash</translation>
    </message>
    <message>
        <source>preemption notice</source>
        <translation>preemption notice</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>preempted</translation>
    </message>
    <message>
        <source>resume</source>
        <translation>resume</translation>
    </message>
    <message>
        <source>rollback</source>
        <translation>rollback</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>stop</translation>
    </message>
    <message>
        <source>error</source>
        <translation>error</translation>
    </message>
    <message>
        <source>finish</source>
        <translation>finish</translation>
    </message>
    <message>
        <source>crash armed</source>
        <translation>crash armed</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::FaultTolerancePanel</name>
    <message>
        <source>%1 useful steps (%2 worker-hours)</source>
        <translation>%1 useful steps (%2 worker-hours)</translation>
    </message>
    <message>
        <source>Useful steps divided by the wall time of every session times its workers.</source>
        <translation>Useful steps divided by the wall time of every session times its workers.</translation>
    </message>
    <message>
        <source>Goodput per worker-hour</source>
        <translation>Goodput per worker-hour</translation>
    </message>
    <message>
        <source>Lost steps times the time per step times the workers that computed them: in a data-parallel job one lost worker costs every worker&apos;s work since the checkpoint.</source>
        <translation>Lost steps times the time per step times the workers that computed them: in a data-parallel job one lost worker costs every worker&apos;s work since the checkpoint.</translation>
    </message>
    <message>
        <source>Worker time lost</source>
        <translation>Worker time lost</translation>
    </message>
    <message>
        <source>Times torchrun restarted every worker of the job from its last checkpoint after one was lost.</source>
        <translation>Times torchrun restarted every worker of the job from its last checkpoint after one was lost.</translation>
    </message>
    <message>
        <source>Job restarts</source>
        <translation>Job restarts</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>What checkpointing and failures cost</source>
        <translation>What checkpointing and failures cost</translation>
    </message>
    <message>
        <source>Checkpoints written</source>
        <translation>Checkpoints written</translation>
    </message>
    <message>
        <source>Interruptions</source>
        <translation>Interruptions</translation>
    </message>
    <message>
        <source>Sessions that ended by a crash, a preemption, a kill or a failure.</source>
        <translation>Sessions that ended by a crash, a preemption, a kill or a failure.</translation>
    </message>
    <message>
        <source>Steps lost</source>
        <translation>Steps lost</translation>
    </message>
    <message>
        <source>Steps an interruption threw away: computed after the checkpoint it left to resume from.</source>
        <translation>Steps an interruption threw away: computed after the checkpoint it left to resume from.</translation>
    </message>
    <message>
        <source>Steps recomputed</source>
        <translation>Steps recomputed</translation>
    </message>
    <message>
        <source>Of the lost steps, those trained (or replayed) again.</source>
        <translation>Of the lost steps, those trained (or replayed) again.</translation>
    </message>
    <message>
        <source>Recomputed by choice</source>
        <translation>Recomputed by choice</translation>
    </message>
    <message>
        <source>Steps given up by resuming at an earlier position (a rollback): a choice, not lost work.</source>
        <translation>Steps given up by resuming at an earlier position (a rollback): a choice, not lost work.</translation>
    </message>
    <message>
        <source>Wall time lost</source>
        <translation>Wall time lost</translation>
    </message>
    <message>
        <source>Lost steps times the measured time per step.</source>
        <translation>Lost steps times the measured time per step.</translation>
    </message>
    <message>
        <source>Downtime</source>
        <translation>Downtime</translation>
    </message>
    <message>
        <source>Time between an interruption and the next session: waiting to resume, not lost work.</source>
        <translation>Time between an interruption and the next session: waiting to resume, not lost work.</translation>
    </message>
    <message>
        <source>no training yet</source>
        <translation>no training yet</translation>
    </message>
    <message>
        <source>Goodput</source>
        <translation>Goodput</translation>
    </message>
    <message>
        <source>Useful steps (the global step reached on the current branch) divided by all steps computed.</source>
        <translation>Useful steps (the global step reached on the current branch) divided by all steps computed.</translation>
    </message>
    <message>
        <source>Best checkpoint interval (Young/Daly)</source>
        <translation>Best checkpoint interval (Young/Daly)</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Mean time between failures to assume when none was observed.</source>
        <translation>Mean time between failures to assume when none was observed.</translation>
    </message>
    <message>
        <source>Use the assumed MTBF even when failures were observed</source>
        <translation>Use the assumed MTBF even when failures were observed</translation>
    </message>
    <message>
        <source>Assumed MTBF</source>
        <translation>Assumed MTBF</translation>
    </message>
    <message>
        <source>Checkpoint cost C</source>
        <translation>Checkpoint cost C</translation>
    </message>
    <message>
        <source>Mean write time of one checkpoint, measured.</source>
        <translation>Mean write time of one checkpoint, measured.</translation>
    </message>
    <message>
        <source>MTBF M</source>
        <translation>MTBF M</translation>
    </message>
    <message>
        <source>Observed: instance time divided by interruptions; otherwise the assumed value.</source>
        <translation>Observed: instance time divided by interruptions; otherwise the assumed value.</translation>
    </message>
    <message>
        <source>Optimal interval √(2·C·M)</source>
        <translation>Optimal interval √(2·C·M)</translation>
    </message>
    <message>
        <source>Checkpointing this often minimizes the expected time lost to checkpoints plus recomputation.</source>
        <translation>Checkpointing this often minimizes the expected time lost to checkpoints plus recomputation.</translation>
    </message>
    <message>
        <source>Spot pricing estimate</source>
        <translation>Spot pricing estimate</translation>
    </message>
    <message>
        <source>How much cheaper an interruptible (spot) instance is than on-demand.</source>
        <translation>How much cheaper an interruptible (spot) instance is than on-demand.</translation>
    </message>
    <message>
        <source>Spot discount</source>
        <translation>Spot discount</translation>
    </message>
    <message>
        <source>Training seconds</source>
        <translation>Training seconds</translation>
    </message>
    <message>
        <source>Wall time of all sessions, including lost work.</source>
        <translation>Wall time of all sessions, including lost work.</translation>
    </message>
    <message>
        <source>Billable seconds</source>
        <translation>Billable seconds</translation>
    </message>
    <message>
        <source>Training seconds at the spot discount.</source>
        <translation>Training seconds at the spot discount.</translation>
    </message>
    <message>
        <source>Savings</source>
        <translation>Savings</translation>
    </message>
    <message>
        <source>Compared with on-demand, after paying for the lost work.</source>
        <translation>Compared with on-demand, after paying for the lost work.</translation>
    </message>
    <message>
        <source>%1 (%2 of compute time)</source>
        <translation>%1 (%2 of compute time)</translation>
    </message>
    <message>
        <source>%1 (%2 useful of %3 computed)</source>
        <translation>%1 (%2 useful of %3 computed)</translation>
    </message>
    <message>
        <source>%1 (observed)</source>
        <translation>%1 (observed)</translation>
    </message>
    <message>
        <source>%1 (assumed)</source>
        <translation>%1 (assumed)</translation>
    </message>
    <message>
        <source>%1 ≈ every %2 steps</source>
        <translation>%1 ≈ every %2 steps</translation>
    </message>
    <message>
        <source>needs a measured checkpoint</source>
        <translation>needs a measured checkpoint</translation>
    </message>
    <message>
        <source>%1 (%2 s)</source>
        <translation>%1 (%2 s)</translation>
    </message>
    <message>
        <source>Saves committed to the registry, in every session of this run; and those due while the previous one was still being written that were skipped or taken late (the run&apos;s async policy).</source>
        <translation>Saves committed to the registry, in every session of this run; and those due while the previous one was still being written that were skipped or taken late (the run&apos;s async policy).</translation>
    </message>
    <message>
        <source>%1 (%2 skipped, %3 taken late)</source>
        <translation>%1 (%2 skipped, %3 taken late)</translation>
    </message>
    <message>
        <source>Checkpoint writing</source>
        <translation>Checkpoint writing</translation>
    </message>
    <message>
        <source>Total time the background I/O thread spent writing, hashing and committing checkpoints, and its share of the time spent computing steps. Training goes on meanwhile.</source>
        <translation>Total time the background I/O thread spent writing, hashing and committing checkpoints, and its share of the time spent computing steps. Training goes on meanwhile.</translation>
    </message>
    <message>
        <source>Training held up</source>
        <translation>Training held up</translation>
    </message>
    <message>
        <source>Total time the training thread waited for checkpoints: to take each snapshot, and, with the &apos;wait&apos; policy, for the previous save to be written. This is what checkpointing cost the training directly.</source>
        <translation>Total time the training thread waited for checkpoints: to take each snapshot, and, with the &apos;wait&apos; policy, for the previous save to be written. This is what checkpointing cost the training directly.</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::FirstLaunchHint</name>
    <message>
        <source>Start a training run with New run… (%1), or watch a one-minute demo: a run, a crash, a rollback.</source>
        <translation>Start a training run with New run… (%1), or watch a one-minute demo: a run, a crash, a rollback.</translation>
    </message>
    <message>
        <source>New run…</source>
        <translation>New run…</translation>
    </message>
    <message>
        <source>Run the demo</source>
        <translation>Run the demo</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>Getting started</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::MainWindow</name>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Download runs synced to S3-compatible storage (s3://bucket/prefix) into this home, to resume them here</source>
        <translation>Download runs synced to S3-compatible storage (s3://bucket/prefix) into this home, to resume them here</translation>
    </message>
    <message>
        <source>Open runs from remote storage…</source>
        <translation>Open runs from remote storage…</translation>
    </message>
    <message>
        <source>Open runs from remote storage</source>
        <translation>Open runs from remote storage</translation>
    </message>
    <message>
        <source>Runs under this address are downloaded into this window&apos;s home, every file checked against its SHA-256 first:</source>
        <translation>Runs under this address are downloaded into this window&apos;s home, every file checked against its SHA-256 first:</translation>
    </message>
    <message>
        <source>Savepoint — %1</source>
        <translation>Savepoint — %1</translation>
    </message>
    <message>
        <source>Recovery: %1</source>
        <translation>Recovery: %1</translation>
    </message>
    <message>
        <source>Cannot open the registry in %1: %2</source>
        <translation>Cannot open the registry in %1: %2</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Runs</translation>
    </message>
    <message>
        <source>Fault tolerance</source>
        <translation>Fault tolerance</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Checkpoints</translation>
    </message>
    <message>
        <source>Checkpoints · %1</source>
        <translation>Checkpoints · %1</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Events</translation>
    </message>
    <message>
        <source>X axis:</source>
        <translation>X axis:</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Global step</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoch</translation>
    </message>
    <message>
        <source>Wall-clock time</source>
        <translation>Wall-clock time</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>Smoothing:</translation>
    </message>
    <message>
        <source>Weight of the bias-corrected exponential moving average; the raw steps stay visible behind it.</source>
        <translation>Weight of the bias-corrected exponential moving average; the raw steps stay visible behind it.</translation>
    </message>
    <message>
        <source>Log scale for loss</source>
        <translation>Log scale for loss</translation>
    </message>
    <message>
        <source>Show raw steps</source>
        <translation>Show raw steps</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Reset zoom</translation>
    </message>
    <message>
        <source>Follow all data again (also: double-click the plot). Drag to pan, wheel to zoom.</source>
        <translation>Follow all data again (also: double-click the plot). Drag to pan, wheel to zoom.</translation>
    </message>
    <message>
        <source>Right-click the plot to resume from a step</source>
        <translation>Right-click the plot to resume from a step</translation>
    </message>
    <message>
        <source>Resume from here</source>
        <translation>Resume from here</translation>
    </message>
    <message>
        <source>Continue training from the selected checkpoint; older than the head, this is a rollback onto a new branch.</source>
        <translation>Continue training from the selected checkpoint; older than the head, this is a rollback onto a new branch.</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>Verify</translation>
    </message>
    <message>
        <source>Pin / unpin</source>
        <translation>Pin / unpin</translation>
    </message>
    <message>
        <source>Pinned checkpoints are never deleted by retention.</source>
        <translation>Pinned checkpoints are never deleted by retention.</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Delete…</translation>
    </message>
    <message>
        <source>Delete the file (never the head).</source>
        <translation>Delete the file (never the head).</translation>
    </message>
    <message>
        <source>Show file</source>
        <translation>Show file</translation>
    </message>
    <message>
        <source>Open the folder holding the checkpoint file.</source>
        <translation>Open the folder holding the checkpoint file.</translation>
    </message>
    <message>
        <source>Show deleted</source>
        <translation>Show deleted</translation>
    </message>
    <message>
        <source>New run…</source>
        <translation>New run…</translation>
    </message>
    <message>
        <source>Configure and start a new training run</source>
        <translation>Configure and start a new training run</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Pause or continue training at the next step</source>
        <translation>Pause or continue training at the next step</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Graceful stop: write a checkpoint, then stop</source>
        <translation>Graceful stop: write a checkpoint, then stop</translation>
    </message>
    <message>
        <source>Checkpoint now</source>
        <translation>Checkpoint now</translation>
    </message>
    <message>
        <source>Write a checkpoint at the next step</source>
        <translation>Write a checkpoint at the next step</translation>
    </message>
    <message>
        <source>Simulate crash</source>
        <translation>Simulate crash</translation>
    </message>
    <message>
        <source>Stop dead, as if the machine died: nothing more is saved</source>
        <translation>Stop dead, as if the machine died: nothing more is saved</translation>
    </message>
    <message>
        <source>Crash at step</source>
        <translation>Crash at step</translation>
    </message>
    <message>
        <source>Simulate a crash after the global step set beside</source>
        <translation>Simulate a crash after the global step set beside</translation>
    </message>
    <message>
        <source>Simulate preemption</source>
        <translation>Simulate preemption</translation>
    </message>
    <message>
        <source>A preemption notice: emergency checkpoint within the grace period, then stop</source>
        <translation>A preemption notice: emergency checkpoint within the grace period, then stop</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Resume</translation>
    </message>
    <message>
        <source>Resume the selected run from its latest usable checkpoint</source>
        <translation>Resume the selected run from its latest usable checkpoint</translation>
    </message>
    <message>
        <source>Resume at</source>
        <translation>Resume at</translation>
    </message>
    <message>
        <source>Resume (or roll back) at the epoch and step set beside</source>
        <translation>Resume (or roll back) at the epoch and step set beside</translation>
    </message>
    <message>
        <source>Export plot…</source>
        <translation>Export plot…</translation>
    </message>
    <message>
        <source>Save the plots as PNG or PDF</source>
        <translation>Save the plots as PNG or PDF</translation>
    </message>
    <message>
        <source>Export metrics as CSV…</source>
        <translation>Export metrics as CSV…</translation>
    </message>
    <message>
        <source>Every point, raw and smoothed</source>
        <translation>Every point, raw and smoothed</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Global step after which the simulated crash happens</source>
        <translation>Global step after which the simulated crash happens</translation>
    </message>
    <message>
        <source>grace </source>
        <translation>grace </translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Grace period of the preemption notice (applies to the next start or resume)</source>
        <translation>Grace period of the preemption notice (applies to the next start or resume)</translation>
    </message>
    <message>
        <source>epoch </source>
        <translation>epoch </translation>
    </message>
    <message>
        <source>step </source>
        <translation>step </translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <source>&amp;Training</source>
        <translation>&amp;Training</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Settings</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Language</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>System default</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <source>About Savepoint</source>
        <translation>About Savepoint</translation>
    </message>
    <message>
        <source>&lt;b&gt;Savepoint %1&lt;/b&gt;&lt;br&gt;Watch, interrupt, roll back and resume neural-network training.&lt;br&gt;Home: %2</source>
        <translation>&lt;b&gt;Savepoint %1&lt;/b&gt;&lt;br&gt;Watch, interrupt, roll back and resume neural-network training.&lt;br&gt;Home: %2</translation>
    </message>
    <message>
        <source>The language changes the next time Savepoint starts.</source>
        <translation>The language changes the next time Savepoint starts.</translation>
    </message>
    <message>
        <source>Training is running</source>
        <translation>Training is running</translation>
    </message>
    <message>
        <source>Stop training gracefully (write a checkpoint) and quit?</source>
        <translation>Stop training gracefully (write a checkpoint) and quit?</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continue</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>Export plot</translation>
    </message>
    <message>
        <source>PNG image (*.png);;PDF document (*.pdf)</source>
        <translation>PNG image (*.png);;PDF document (*.pdf)</translation>
    </message>
    <message>
        <source>Plot saved to %1</source>
        <translation>Plot saved to %1</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>Cannot write %1</translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation>Export metrics</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Metrics saved to %1</source>
        <translation>Metrics saved to %1</translation>
    </message>
    <message>
        <source>Check the file&apos;s size, footer and checksum (built from SHA-256s; see the README&apos;s file format).</source>
        <translation>Check the file&apos;s size, footer and checksum (built from SHA-256s; see the README&apos;s file format).</translation>
    </message>
    <message>
        <source>Start…</source>
        <translation>Start…</translation>
    </message>
    <message>
        <source>Run the demo</source>
        <translation>Run the demo</translation>
    </message>
    <message>
        <source>A one-minute synthetic run: a crash, then a rollback</source>
        <translation>A one-minute synthetic run: a crash, then a rollback</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>Positions</translation>
    </message>
    <message>
        <source>Metrics plots</source>
        <translation>Metrics plots</translation>
    </message>
    <message>
        <source>Loss plot</source>
        <translation>Loss plot</translation>
    </message>
    <message>
        <source>Accuracy plot</source>
        <translation>Accuracy plot</translation>
    </message>
    <message>
        <source>Epoch to resume at</source>
        <translation>Epoch to resume at</translation>
    </message>
    <message>
        <source>Step to resume at (the last completed step of that epoch)</source>
        <translation>Step to resume at (the last completed step of that epoch)</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it first.</source>
        <translation>A run is already training in this window; stop it first.</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Compare</translation>
    </message>
    <message>
        <source>Ctrl- or Shift-click more runs to compare their curves and settings.</source>
        <translation>Ctrl- or Shift-click more runs to compare their curves and settings.</translation>
    </message>
    <message>
        <source>Kill a worker…</source>
        <translation>Kill a worker…</translation>
    </message>
    <message>
        <source>SIGKILL one worker of the data-parallel job, as if its machine were lost</source>
        <translation>SIGKILL one worker of the data-parallel job, as if its machine were lost</translation>
    </message>
    <message>
        <source>A data-parallel job is running</source>
        <translation>A data-parallel job is running</translation>
    </message>
    <message>
        <source>Send it the preemption notice (every worker writes one checkpoint) and quit?</source>
        <translation>Send it the preemption notice (every worker writes one checkpoint) and quit?</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::MetricsPlot</name>
    <message>
        <source>Loss</source>
        <translation>Loss</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Accuracy</translation>
    </message>
    <message>
        <source>checkpoint</source>
        <translation>checkpoint</translation>
    </message>
    <message>
        <source>lost work (recomputed)</source>
        <translation>lost work (recomputed)</translation>
    </message>
    <message>
        <source>Global step</source>
        <translation>Global step</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoch</translation>
    </message>
    <message>
        <source>Wall-clock time since the run started (h:m:s)</source>
        <translation>Wall-clock time since the run started (h:m:s)</translation>
    </message>
    <message>
        <source>branch %1 (abandoned)</source>
        <translation>branch %1 (abandoned)</translation>
    </message>
    <message>
        <source>branch %1</source>
        <translation>branch %1</translation>
    </message>
    <message>
        <source>validation (per epoch)</source>
        <translation>validation (per epoch)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch %1, abandoned&lt;/b&gt; (lost work, recomputed later)</source>
        <translation>&lt;b&gt;Branch %1, abandoned&lt;/b&gt; (lost work, recomputed later)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Branch %1&lt;/b&gt;</source>
        <translation>&lt;b&gt;Branch %1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Global step %1 (epoch %2, step %3)</source>
        <translation>Global step %1 (epoch %2, step %3)</translation>
    </message>
    <message>
        <source>Loss %1 (smoothed %2)</source>
        <translation>Loss %1 (smoothed %2)</translation>
    </message>
    <message>
        <source>Accuracy %1 (smoothed %2)</source>
        <translation>Accuracy %1 (smoothed %2)</translation>
    </message>
    <message>
        <source>Time since start %1</source>
        <translation>Time since start %1</translation>
    </message>
    <message>
        <source>Validation: loss %1, accuracy %2</source>
        <translation>Validation: loss %1, accuracy %2</translation>
    </message>
    <message>
        <source>Resume from here: epoch %1, step %2 (global step %3)</source>
        <translation>Resume from here: epoch %1, step %2 (global step %3)</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Reset zoom</translation>
    </message>
    <message>
        <source>Savepoint metrics</source>
        <translation>Savepoint metrics</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::NewRunDialog</name>
    <message>
        <source>No GPU can train here; choose “cpu” or “auto”</source>
        <translation>No GPU can train here; choose “cpu” or “auto”</translation>
    </message>
    <message>
        <source>no GPU: %1</source>
        <translation>no GPU: %1</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU: %1</translation>
    </message>
    <message>
        <source>Enter the storage&apos;s address, such as s3://my-bucket/checkpoints</source>
        <translation>Enter the storage&apos;s address, such as s3://my-bucket/checkpoints</translation>
    </message>
    <message>
        <source>Remote storage</source>
        <translation>Remote storage</translation>
    </message>
    <message>
        <source>Remote storage is for a run trained in this window (Workers 1), not yet for a job</source>
        <translation>Remote storage is for a run trained in this window (Workers 1), not yet for a job</translation>
    </message>
    <message>
        <source>Each checkpoint is also uploaded there in the background (AWS S3, MinIO, Ceph, Swift), with the credentials of AWS_ACCESS_KEY_ID or ~/.aws/credentials and AWS_ENDPOINT_URL; File ▸ Open runs from remote storage… brings the run back on another machine.</source>
        <translation>Each checkpoint is also uploaded there in the background (AWS S3, MinIO, Ceph, Swift), with the credentials of AWS_ACCESS_KEY_ID or ~/.aws/credentials and AWS_ENDPOINT_URL; File ▸ Open runs from remote storage… brings the run back on another machine.</translation>
    </message>
    <message>
        <source>optional: s3://bucket/prefix</source>
        <translation>optional: s3://bucket/prefix</translation>
    </message>
    <message>
        <source>A job of several workers waits for each checkpoint: choose “wait”</source>
        <translation>A job of several workers waits for each checkpoint: choose “wait”</translation>
    </message>
    <message>
        <source>Expected %1; found %2.</source>
        <translation>Expected %1; found %2.</translation>
    </message>
    <message>
        <source>Fashion-MNIST is not installed in %1 (install Debian&apos;s dataset-fashion-mnist, set SAVEPOINT_FASHION_MNIST_DIR, or choose “synthetic”)</source>
        <translation>Fashion-MNIST is not installed in %1 (install Debian&apos;s dataset-fashion-mnist, set SAVEPOINT_FASHION_MNIST_DIR, or choose “synthetic”)</translation>
    </message>
    <message>
        <source>Choose “synthetic”, “fashion-mnist” or a directory with MNIST-format files</source>
        <translation>Choose “synthetic”, “fashion-mnist” or a directory with MNIST-format files</translation>
    </message>
    <message>
        <source>%1 is not a directory (expected “synthetic”, “fashion-mnist” or a directory with MNIST-format files)</source>
        <translation>%1 is not a directory (expected “synthetic”, “fashion-mnist” or a directory with MNIST-format files)</translation>
    </message>
    <message>
        <source>%1 has no %2 (or %2.gz)</source>
        <translation>%1 has no %2 (or %2.gz)</translation>
    </message>
    <message>
        <source>New training run</source>
        <translation>New training run</translation>
    </message>
    <message>
        <source>Directory…</source>
        <translation>Directory…</translation>
    </message>
    <message>
        <source>MNIST-format dataset directory</source>
        <translation>MNIST-format dataset directory</translation>
    </message>
    <message>
        <source>one full pass</source>
        <translation>one full pass</translation>
    </message>
    <message>
        <source>default</source>
        <translation>default</translation>
    </message>
    <message>
        <source>Run name</source>
        <translation>Run name</translation>
    </message>
    <message>
        <source>Letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;; becomes a folder name.</source>
        <translation>Letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;; becomes a folder name.</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Dataset</translation>
    </message>
    <message>
        <source>“synthetic” (generated, no download), “fashion-mnist”, or a directory with the four MNIST-format files.</source>
        <translation>“synthetic” (generated, no download), “fashion-mnist”, or a directory with the four MNIST-format files.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>mlp: one hidden layer; dnn: three; cnn: convolutional.</source>
        <translation>mlp: one hidden layer; dnn: three; cnn: convolutional.</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>Epochs</translation>
    </message>
    <message>
        <source>Steps per epoch</source>
        <translation>Steps per epoch</translation>
    </message>
    <message>
        <source>0: one full pass over the training split.</source>
        <translation>0: one full pass over the training split.</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batch size</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Learning rate</translation>
    </message>
    <message>
        <source>Greater than 0 and at most 10, e.g. 0.001 or 1e-3.</source>
        <translation>Greater than 0 and at most 10, e.g. 0.001 or 1e-3.</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimizer</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Same seed, same data order and initial weights.</source>
        <translation>Same seed, same data order and initial weights.</translation>
    </message>
    <message>
        <source>Save every</source>
        <translation>Save every</translation>
    </message>
    <message>
        <source>“epoch”, or a number of steps.</source>
        <translation>“epoch”, or a number of steps.</translation>
    </message>
    <message>
        <source>Keep newest</source>
        <translation>Keep newest</translation>
    </message>
    <message>
        <source>Older checkpoints are deleted (best, head and pinned ones are kept).</source>
        <translation>Older checkpoints are deleted (best, head and pinned ones are kept).</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Device</translation>
    </message>
    <message>
        <source>auto: the GPU when LibTorch sees one, else the CPU.</source>
        <translation>auto: the GPU when LibTorch sees one, else the CPU.</translation>
    </message>
    <message>
        <source>CPU threads</source>
        <translation>CPU threads</translation>
    </message>
    <message>
        <source>When a save is still writing</source>
        <translation>When a save is still writing</translation>
    </message>
    <message>
        <source>wait: training waits for it; skip: this save is skipped; defer: this save is taken as soon as that one is committed.</source>
        <translation>wait: training waits for it; skip: this save is skipped; defer: this save is taken as soon as that one is committed.</translation>
    </message>
    <message>
        <source>Start training</source>
        <translation>Start training</translation>
    </message>
    <message>
        <source>Use 1 to 64 characters from A–Z, a–z, 0–9, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, not starting with &apos;.&apos;</source>
        <translation>Use 1 to 64 characters from A–Z, a–z, 0–9, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, not starting with &apos;.&apos;</translation>
    </message>
    <message>
        <source>A run named “%1” already exists; resume it instead</source>
        <translation>A run named “%1” already exists; resume it instead</translation>
    </message>
    <message>
        <source>Enter a number such as 0.001 or 1e-3</source>
        <translation>Enter a number such as 0.001 or 1e-3</translation>
    </message>
    <message>
        <source>Enter a whole number from 0 to 18446744073709551615</source>
        <translation>Enter a whole number from 0 to 18446744073709551615</translation>
    </message>
    <message>
        <source>Enter “epoch” or a positive number of steps</source>
        <translation>Enter “epoch” or a positive number of steps</translation>
    </message>
    <message>
        <source>%1: expected %2, found %3.</source>
        <translation>%1: expected %2, found %3.</translation>
    </message>
    <message>
        <source>a whole number from %1 to %2</source>
        <translation>a whole number from %1 to %2</translation>
    </message>
    <message>
        <source>a number greater than %1 and at most %2</source>
        <translation>a number greater than %1 and at most %2</translation>
    </message>
    <message>
        <source>a number from %1 to %2</source>
        <translation>a number from %1 to %2</translation>
    </message>
    <message>
        <source>one of %1</source>
        <translation>one of %1</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>Checkpoint</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoch</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <source>1: trains in this window. 2 or more: a data-parallel job of that many processes under torchrun (PyTorch's launcher), each training on its own batch of the size above.</source>
        <translation>1: trains in this window. 2 or more: a data-parallel job of that many processes under torchrun (PyTorch's launcher), each training on its own batch of the size above.</translation>
    </message>
    <message>
        <source>How often torchrun restarts the whole job from its last checkpoint when a worker is lost.</source>
        <translation>How often torchrun restarts the whole job from its last checkpoint when a worker is lost.</translation>
    </message>
    <message>
        <source>torchrun was not found on PATH (on Debian: apt install python3-torch)</source>
        <translation>torchrun was not found on PATH (on Debian: apt install python3-torch)</translation>
    </message>
    <message>
        <source>Workers</source>
        <translation>Workers</translation>
    </message>
    <message>
        <source>Restarts</source>
        <translation>Restarts</translation>
    </message>
    <message>
        <source>1 (trains in this window)</source>
        <translation>1 (trains in this window)</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunComparisonView</name>
    <message>
        <source>Cannot compare these runs: %1</source>
        <translation>Cannot compare these runs: %1</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunDataView</name>
    <message>
        <source>Cannot read the run list: %1</source>
        <translation>Cannot read the run list: %1</translation>
    </message>
    <message>
        <source>Cannot read the registry: %1</source>
        <translation>Cannot read the registry: %1</translation>
    </message>
    <message>
        <source>Verifying checkpoint #%1…</source>
        <translation>Verifying checkpoint #%1…</translation>
    </message>
    <message>
        <source>Checkpoint #%1 verified: %2</source>
        <translation>Checkpoint #%1 verified: %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged: %2</source>
        <translation>Checkpoint #%1 is damaged: %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged and will not be resumed from: %2</source>
        <translation>Checkpoint #%1 is damaged and will not be resumed from: %2</translation>
    </message>
    <message>
        <source>Checkpoint #%1 unpinned</source>
        <translation>Checkpoint #%1 unpinned</translation>
    </message>
    <message>
        <source>Checkpoint #%1 pinned</source>
        <translation>Checkpoint #%1 pinned</translation>
    </message>
    <message>
        <source>Cannot change the pin: %1</source>
        <translation>Cannot change the pin: %1</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is the head (where training resumes); it cannot be deleted.</source>
        <translation>Checkpoint #%1 is the head (where training resumes); it cannot be deleted.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is not one of this run&apos;s.</source>
        <translation>Checkpoint #%1 is not one of this run&apos;s.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is %2; only a committed checkpoint can be pinned.</source>
        <translation>Checkpoint #%1 is %2; only a committed checkpoint can be pinned.</translation>
    </message>
    <message>
        <source>Stop the training of this run before deleting its checkpoints.</source>
        <translation>Stop the training of this run before deleting its checkpoints.</translation>
    </message>
    <message>
        <source>Delete checkpoint?</source>
        <translation>Delete checkpoint?</translation>
    </message>
    <message>
        <source>Delete checkpoint #%1 (epoch %2, step %3)? The file is removed; the row stays in the history as deleted.</source>
        <translation>Delete checkpoint #%1 (epoch %2, step %3)? The file is removed; the row stays in the history as deleted.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 deleted</source>
        <translation>Checkpoint #%1 deleted</translation>
    </message>
    <message>
        <source>Cannot delete checkpoint #%1: %2</source>
        <translation>Cannot delete checkpoint #%1: %2</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>Cannot open %1</translation>
    </message>
    <message>
        <source>checksum %1 matches the footer and the registry (%2 bytes)</source>
        <translation>checksum %1 matches the footer and the registry (%2 bytes)</translation>
    </message>
    <message numerus="yes">
        <source>Run “%1”: %n event(s) recorded in the registry</source>
        <translation>
            <numerusform>Run “%1”: %n event recorded in the registry</numerusform>
            <numerusform>Run “%1”: %n events recorded in the registry</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read the history of this run: %1</source>
        <translation>Cannot read the history of this run: %1</translation>
    </message>
    <message>
        <source>Cannot verify checkpoint #%1: %2</source>
        <translation>Cannot verify checkpoint #%1: %2</translation>
    </message>
    <message>
        <source>It is pinned: you chose to keep it, and retention never deletes it.</source>
        <translation>It is pinned: you chose to keep it, and retention never deletes it.</translation>
    </message>
    <message>
        <source>A branch starts from it: that branch could no longer be rolled back to this point.</source>
        <translation>A branch starts from it: that branch could no longer be rolled back to this point.</translation>
    </message>
    <message>
        <source>No file manager could be opened. The checkpoint file is %1 (its path is copied to the clipboard).</source>
        <translation>No file manager could be opened. The checkpoint file is %1 (its path is copied to the clipboard).</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RunListModel</name>
    <message>
        <source>worker %1 on %2: %3 steps, %4 s computing, %5 s of it in the all-reduce</source>
        <translation>worker %1 on %2: %3 steps, %4 s computing, %5 s of it in the all-reduce</translation>
    </message>
    <message numerus="yes">
        <source>torchrun restarted it %n time(s) after a lost worker</source>
        <translation>
            <numerusform>torchrun restarted it %n time after a lost worker</numerusform>
            <numerusform>torchrun restarted it %n times after a lost worker</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>A data-parallel job of %n worker(s) under torchrun</source>
        <translation>
            <numerusform>A data-parallel job of %n worker under torchrun</numerusform>
            <numerusform>A data-parallel job of %n workers under torchrun</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n worker(s)</source>
        <translation>
            <numerusform>%1 · %n worker</numerusform>
            <numerusform>%1 · %n workers</numerusform>
        </translation>
    </message>
    <message>
        <source>created</source>
        <translation>created</translation>
    </message>
    <message>
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>paused</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>interrupted</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>preempted</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>stopped</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>finished</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>%1 % (%2/%3)</source>
        <translation>%1 % (%2/%3)</translation>
    </message>
    <message numerus="yes">
        <source>%n branch(es): each rollback starts a new one; the old ones are kept</source>
        <translation>
            <numerusform>%n branch: each rollback starts a new one; the old ones are kept</numerusform>
            <numerusform>%n branches: each rollback starts a new one; the old ones are kept</numerusform>
        </translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Progress</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Loss</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Accuracy</translation>
    </message>
    <message>
        <source>Val. acc.</source>
        <translation>Val. acc.</translation>
    </message>
    <message>
        <source>Branches</source>
        <translation>Branches</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Device</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::StatusBarFields</name>
    <message>
        <source>Checkpoints copied to %1: %2 uploaded, %3 pending, %4 failed (retried)</source>
        <translation>Checkpoints copied to %1: %2 uploaded, %3 pending, %4 failed (retried)</translation>
    </message>
    <message>
        <source>S3: %1 uploaded, %2 waiting (%3 MB)</source>
        <translation>S3: %1 uploaded, %2 waiting (%3 MB)</translation>
    </message>
    <message>
        <source>S3: all %1 uploaded</source>
        <translation>S3: all %1 uploaded</translation>
    </message>
    <message>
        <source>Where the model trains</source>
        <translation>Where the model trains</translation>
    </message>
    <message>
        <source>Training steps per second in this session</source>
        <translation>Training steps per second in this session</translation>
    </message>
    <message>
        <source>Estimated time until the last step</source>
        <translation>Estimated time until the last step</translation>
    </message>
    <message>
        <source>Time since the last checkpoint was committed: the work a crash now would lose</source>
        <translation>Time since the last checkpoint was committed: the work a crash now would lose</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>Loading</source>
        <translation>Loading</translation>
    </message>
    <message>
        <source>Replaying to the chosen step</source>
        <translation>Replaying to the chosen step</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Validating</source>
        <translation>Validating</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>Checkpointing</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Paused</translation>
    </message>
    <message>
        <source>Waiting for disk space</source>
        <translation>Waiting for disk space</translation>
    </message>
    <message>
        <source>validating %1/%2</source>
        <translation>validating %1/%2</translation>
    </message>
    <message>
        <source>%1 — training in another process</source>
        <translation>%1 — training in another process</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Done</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Device: %1</source>
        <translation>Device: %1</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>%1 steps/s</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>ETA %1</translation>
    </message>
    <message>
        <source>epoch %1/%2 · step %3/%4</source>
        <translation>epoch %1/%2 · step %3/%4</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>Idle</translation>
    </message>
    <message>
        <source>Device: –</source>
        <translation>Device: –</translation>
    </message>
    <message>
        <source>– steps/s</source>
        <translation>– steps/s</translation>
    </message>
    <message>
        <source>ETA –</source>
        <translation>ETA –</translation>
    </message>
    <message>
        <source>No checkpoint yet</source>
        <translation>No checkpoint yet</translation>
    </message>
    <message>
        <source>Last checkpoint %1 ago</source>
        <translation>Last checkpoint %1 ago</translation>
    </message>
    <message>
        <source>Interrupted (crash)</source>
        <translation>Interrupted (crash)</translation>
    </message>
    <message>
        <source>Preempted</source>
        <translation>Preempted</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Stopped</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Failed</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::TrainingController</name>
    <message>
        <source>&lt;b&gt;Resumed on another device.&lt;/b&gt; Checkpoint #%1 was trained on another device, GPU model or library version than this session trains on. Training goes on, but its bits will differ from a run that never stopped; the Events pane says what differs.</source>
        <translation>&lt;b&gt;Resumed on another device.&lt;/b&gt; Checkpoint #%1 was trained on another device, GPU model or library version than this session trains on. Training goes on, but its bits will differ from a run that never stopped; the Events pane says what differs.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Low disk.&lt;/b&gt; The home&apos;s file system is running out of room for checkpoints: %1</source>
        <translation>&lt;b&gt;Low disk.&lt;/b&gt; The home&apos;s file system is running out of room for checkpoints: %1</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Resume</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>Continue</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it first.</source>
        <translation>A run is already training in this window; stop it first.</translation>
    </message>
    <message>
        <source>Starting run “%1”…</source>
        <translation>Starting run “%1”…</translation>
    </message>
    <message>
        <source>A run is already training in this window; stop it before resuming.</source>
        <translation>A run is already training in this window; stop it before resuming.</translation>
    </message>
    <message>
        <source>Resuming run “%1”…</source>
        <translation>Resuming run “%1”…</translation>
    </message>
    <message>
        <source>Run “%1” was trained on the dataset in %2, which is not there any more.</source>
        <translation>Run “%1” was trained on the dataset in %2, which is not there any more.</translation>
    </message>
    <message>
        <source>Where is the dataset of run “%1” now? (It was in %2)</source>
        <translation>Where is the dataset of run “%1” now? (It was in %2)</translation>
    </message>
    <message>
        <source>Not resumed: run “%1” was trained on the dataset in %2, which is not there any more. Resume again and choose the folder it moved to.</source>
        <translation>Not resumed: run “%1” was trained on the dataset in %2, which is not there any more. Resume again and choose the folder it moved to.</translation>
    </message>
    <message>
        <source>Resuming run “%1” on the dataset in %2 (checked against what it was trained on).</source>
        <translation>Resuming run “%1” on the dataset in %2 (checked against what it was trained on).</translation>
    </message>
    <message>
        <source>Select a checkpoint in the table first.</source>
        <translation>Select a checkpoint in the table first.</translation>
    </message>
    <message>
        <source>Checkpoint #%1 is damaged (%2) and cannot be resumed from; pick another one.</source>
        <translation>Checkpoint #%1 is damaged (%2) and cannot be resumed from; pick another one.</translation>
    </message>
    <message>
        <source>Roll back?</source>
        <translation>Roll back?</translation>
    </message>
    <message>
        <source>Resume from checkpoint #%1 (epoch %2, step %3)? It is older than the head, so training continues on a new branch; the current branch stays visible.</source>
        <translation>Resume from checkpoint #%1 (epoch %2, step %3)? It is older than the head, so training continues on a new branch; the current branch stays visible.</translation>
    </message>
    <message>
        <source>Stop the training first, then resume from a point on the plot.</source>
        <translation>Stop the training first, then resume from a point on the plot.</translation>
    </message>
    <message>
        <source>Resume from the plot?</source>
        <translation>Resume from the plot?</translation>
    </message>
    <message>
        <source>Resume at epoch %1, step %2 (global step %3)? Training restarts from the nearest checkpoint before it and replays the steps in between; later steps stay on the old branch.</source>
        <translation>Resume at epoch %1, step %2 (global step %3)? Training restarts from the nearest checkpoint before it and replays the steps in between; later steps stay on the old branch.</translation>
    </message>
    <message>
        <source>Stopping: writing a checkpoint, then stopping…</source>
        <translation>Stopping: writing a checkpoint, then stopping…</translation>
    </message>
    <message>
        <source>Simulating a crash now.</source>
        <translation>Simulating a crash now.</translation>
    </message>
    <message>
        <source>A crash will be simulated after global step %1.</source>
        <translation>A crash will be simulated after global step %1.</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>&lt;b&gt;Preemption notice.&lt;/b&gt; The instance will be reclaimed in &lt;b&gt;%1&lt;/b&gt;. Writing an emergency checkpoint…</source>
        <translation>&lt;b&gt;Preemption notice.&lt;/b&gt; The instance will be reclaimed in &lt;b&gt;%1&lt;/b&gt;. Writing an emergency checkpoint…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Preempted.&lt;/b&gt; %1&lt;br&gt;The instance would be reclaimed in &lt;b&gt;%2&lt;/b&gt;.</source>
        <translation>&lt;b&gt;Preempted.&lt;/b&gt; %1&lt;br&gt;The instance would be reclaimed in &lt;b&gt;%2&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Instance reclaimed.&lt;/b&gt; %1&lt;br&gt;Resume to continue from the emergency checkpoint.</source>
        <translation>&lt;b&gt;Instance reclaimed.&lt;/b&gt; %1&lt;br&gt;Resume to continue from the emergency checkpoint.</translation>
    </message>
    <message>
        <source>&lt;b&gt;A checkpoint could not be written:&lt;/b&gt; %1&lt;br&gt;Training is paused; the previous checkpoint and the registry are intact. Free some space, then continue.</source>
        <translation>&lt;b&gt;A checkpoint could not be written:&lt;/b&gt; %1&lt;br&gt;Training is paused; the previous checkpoint and the registry are intact. Free some space, then continue.</translation>
    </message>
    <message>
        <source>Training could not run: %1</source>
        <translation>Training could not run: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Crashed&lt;/b&gt; (simulated): %1. “Resume” continues from the latest checkpoint; to go further back, select one in the Checkpoints table and use “Resume from here”.</source>
        <translation>&lt;b&gt;Crashed&lt;/b&gt; (simulated): %1. “Resume” continues from the latest checkpoint; to go further back, select one in the Checkpoints table and use “Resume from here”.</translation>
    </message>
    <message>
        <source>Training failed: %1</source>
        <translation>Training failed: %1</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>Stopped: %1</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>Finished: %1</translation>
    </message>
    <message>
        <source>%1 received: closing.</source>
        <translation>%1 received: closing.</translation>
    </message>
    <message>
        <source>%1 received: a preemption notice. Savepoint closes once the emergency checkpoint is written.</source>
        <translation>%1 received: a preemption notice. Savepoint closes once the emergency checkpoint is written.</translation>
    </message>
    <message>
        <source>The armed crash is disarmed.</source>
        <translation>The armed crash is disarmed.</translation>
    </message>
    <message numerus="yes">
        <source>Resume at epoch %1, step %2 (global step %3)? This starts a new branch; the current branch, with %Ln step(s) past this point, stays in history.</source>
        <translation>
            <numerusform>Resume at epoch %1, step %2 (global step %3)? This starts a new branch; the current branch, with %Ln step past this point, stays in history.</numerusform>
            <numerusform>Resume at epoch %1, step %2 (global step %3)? This starts a new branch; the current branch, with %Ln steps past this point, stays in history.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>savepoint::ui::JobController</name>
    <message>
        <source>Kill a worker</source>
        <translation>Kill a worker</translation>
    </message>
    <message>
        <source>SIGKILL, as if its machine were lost. The other workers stop too; torchrun restarts the job from its last checkpoint.</source>
        <translation>SIGKILL, as if its machine were lost. The other workers stop too; torchrun restarts the job from its last checkpoint.</translation>
    </message>
    <message numerus="yes">
        <source>Starting run “%1” with %n worker(s) under torchrun (up to %2 restart(s))…</source>
        <translation>
            <numerusform>Starting run “%1” with %n worker under torchrun (up to %2 restart(s))…</numerusform>
            <numerusform>Starting run “%1” with %n workers under torchrun (up to %2 restart(s))…</numerusform>
        </translation>
    </message>
    <message>
        <source>No worker is running right now (the job may be restarting).</source>
        <translation>No worker is running right now (the job may be restarting).</translation>
    </message>
    <message>
        <source>Worker %1 (process %2)</source>
        <translation>Worker %1 (process %2)</translation>
    </message>
    <message>
        <source>Killed worker %1 (SIGKILL to process %2).</source>
        <translation>Killed worker %1 (SIGKILL to process %2).</translation>
    </message>
    <message>
        <source>Preemption notice (SIGTERM) sent to the job: every worker stops at the same step and one emergency checkpoint is written.</source>
        <translation>Preemption notice (SIGTERM) sent to the job: every worker stops at the same step and one emergency checkpoint is written.</translation>
    </message>
    <message>
        <source>worker %1: %2</source>
        <translation>worker %1: %2</translation>
    </message>
    <message>
        <source>torchrun: %1</source>
        <translation>torchrun: %1</translation>
    </message>
    <message>
        <source>The job of run “%1” finished.</source>
        <translation>The job of run “%1” finished.</translation>
    </message>
    <message>
        <source>The job of run “%1” stopped with a checkpoint; Resume continues it.</source>
        <translation>The job of run “%1” stopped with a checkpoint; Resume continues it.</translation>
    </message>
    <message>
        <source>The job of run “%1” ended with exit status %2 (a worker failed and no restart was left, or a worker refused the settings: see the Events pane).</source>
        <translation>The job of run “%1” ended with exit status %2 (a worker failed and no restart was left, or a worker refused the settings: see the Events pane).</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::DataParallelJob</name>
    <message>
        <source>A data-parallel job is already running from this window; stop it first.</source>
        <translation>A data-parallel job is already running from this window; stop it first.</translation>
    </message>
    <message>
        <source>torchrun was not found on PATH: data-parallel jobs use PyTorch's launcher (on Debian: apt install python3-torch).</source>
        <translation>torchrun was not found on PATH: data-parallel jobs use PyTorch's launcher (on Debian: apt install python3-torch).</translation>
    </message>
    <message>
        <source>savepoint-cli was not found beside this program or on PATH: each worker of the job is one.</source>
        <translation>savepoint-cli was not found beside this program or on PATH: each worker of the job is one.</translation>
    </message>
    <message>
        <source>torchrun (%1) did not start: %2</source>
        <translation>torchrun (%1) did not start: %2</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::RemoteController</name>
    <message>
        <source>Nothing was pulled: %1</source>
        <translation>Nothing was pulled: %1</translation>
    </message>
    <message>
        <source>Pulled run “%1” from %2 (checkpoints verified: %3, refused: %4); Resume continues from checkpoint #%5.</source>
        <translation>Pulled run “%1” from %2 (checkpoints verified: %3, refused: %4); Resume continues from checkpoint #%5.</translation>
    </message>
    <message>
        <source>Pulling from %1…</source>
        <translation>Pulling from %1…</translation>
    </message>
    <message>
        <source>Remote storage refused: %1. Training goes on; its checkpoints are uploaded by a later resume that reaches the store.</source>
        <translation>Remote storage refused: %1. Training goes on; its checkpoints are uploaded by a later resume that reaches the store.</translation>
    </message>
    <message>
        <source>Remote storage refused: %1</source>
        <translation>Remote storage refused: %1</translation>
    </message>
    <message>
        <source>Checkpoints of “%1” are uploaded to %2 as they are committed.</source>
        <translation>Checkpoints of “%1” are uploaded to %2 as they are committed.</translation>
    </message>
    <message>
        <source>Checking the remote storage %1…</source>
        <translation>Checking the remote storage %1…</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::SystemPanel</name>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <source>This process and machine</source>
        <translation>This process and machine</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>The training process&apos;s CPU time over the last second; 100 % is one core.</source>
        <translation>The training process&apos;s CPU time over the last second; 100 % is one core.</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memory</translation>
    </message>
    <message>
        <source>The training process&apos;s resident memory.</source>
        <translation>The training process&apos;s resident memory.</translation>
    </message>
    <message>
        <source>Available memory</source>
        <translation>Available memory</translation>
    </message>
    <message>
        <source>Memory the machine can still give without swapping.</source>
        <translation>Memory the machine can still give without swapping.</translation>
    </message>
    <message>
        <source>Written</source>
        <translation>Written</translation>
    </message>
    <message>
        <source>Bytes the training process has written to storage: checkpoints and the registry.</source>
        <translation>Bytes the training process has written to storage: checkpoints and the registry.</translation>
    </message>
    <message>
        <source>Free disk</source>
        <translation>Free disk</translation>
    </message>
    <message>
        <source>Free space on the file system of the home, where checkpoints go.</source>
        <translation>Free space on the file system of the home, where checkpoints go.</translation>
    </message>
    <message>
        <source>CPU %</source>
        <translation>CPU %</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>Memory (MiB)</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Utilisation</source>
        <translation>Utilisation</translation>
    </message>
    <message>
        <source>Share of the last sample period the GPU was running kernels.</source>
        <translation>Share of the last sample period the GPU was running kernels.</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU memory</translation>
    </message>
    <message>
        <source>Memory in use on the GPU (every process), and its total.</source>
        <translation>Memory in use on the GPU (every process), and its total.</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperature</translation>
    </message>
    <message>
        <source>The GPU&apos;s core temperature.</source>
        <translation>The GPU&apos;s core temperature.</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>Power</translation>
    </message>
    <message>
        <source>The board&apos;s power draw.</source>
        <translation>The board&apos;s power draw.</translation>
    </message>
    <message>
        <source>SM clock</source>
        <translation>SM clock</translation>
    </message>
    <message>
        <source>The streaming multiprocessors&apos; clock: lower than usual means throttling.</source>
        <translation>The streaming multiprocessors&apos; clock: lower than usual means throttling.</translation>
    </message>
    <message>
        <source>Throttling</source>
        <translation>Throttling</translation>
    </message>
    <message>
        <source>Why the GPU holds its clocks down, as the driver says it (power cap, heat...).</source>
        <translation>Why the GPU holds its clocks down, as the driver says it (power cap, heat...).</translation>
    </message>
    <message>
        <source>GPU %</source>
        <translation>GPU %</translation>
    </message>
    <message>
        <source>GPU memory (MiB)</source>
        <translation>GPU memory (MiB)</translation>
    </message>
    <message>
        <source>%1 over the run&apos;s sessions, a sample a second</source>
        <translation>%1 over the run&apos;s sessions, a sample a second</translation>
    </message>
    <message>
        <source>GPU: %1</source>
        <translation>GPU: %1</translation>
    </message>
    <message>
        <source>No samples yet: telemetry is taken while a run trains.</source>
        <translation>No samples yet: telemetry is taken while a run trains.</translation>
    </message>
    <message>
        <source>No GPU readings: the run trains on the CPU, or this machine has no NVIDIA driver.</source>
        <translation>No GPU readings: the run trains on the CPU, or this machine has no NVIDIA driver.</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 of %2</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>%1 MHz</source>
        <translation>%1 MHz</translation>
    </message>
    <message>
        <source>none</source>
        <translation>none</translation>
    </message>
</context>
<context>
    <name>RemedyWords</name>
    <message>
        <source>The runs of this home are in the Runs list.</source>
        <translation>The runs of this home are in the Runs list.</translation>
    </message>
    <message>
        <source>Select run '%1' in the Runs list and press Resume, or pick another name.</source>
        <translation>Select run '%1' in the Runs list and press Resume, or pick another name.</translation>
    </message>
    <message>
        <source>Choose a checkpoint of run '%1' in the Checkpoints table.</source>
        <translation>Choose a checkpoint of run '%1' in the Checkpoints table.</translation>
    </message>
    <message>
        <source>Put the model file of run '%1' back where the run recorded it.</source>
        <translation>Put the model file of run '%1' back where the run recorded it.</translation>
    </message>
    <message>
        <source>Put the model file of run '%1' back where the run recorded it; training can follow a moved file, export cannot.</source>
        <translation>Put the model file of run '%1' back where the run recorded it; training can follow a moved file, export cannot.</translation>
    </message>
    <message>
        <source>Put the dataset file of run '%1' back where the run recorded it.</source>
        <translation>Put the dataset file of run '%1' back where the run recorded it.</translation>
    </message>
    <message>
        <source>If the dataset folder of run '%1' moved, press Resume and choose the folder it moved to.</source>
        <translation>If the dataset folder of run '%1' moved, press Resume and choose the folder it moved to.</translation>
    </message>
    <message>
        <source>Leave the model file empty: the run's built-in model goes with it.</source>
        <translation>Leave the model file empty: the run's built-in model goes with it.</translation>
    </message>
    <message>
        <source>Leave the dataset as it is: the run's built-in dataset goes with it.</source>
        <translation>Leave the dataset as it is: the run's built-in dataset goes with it.</translation>
    </message>
    <message>
        <source>Choose cpu or auto as the Device in the New run dialog.</source>
        <translation>Choose cpu or auto as the Device in the New run dialog.</translation>
    </message>
    <message>
        <source>Choose the last good checkpoint of run '%1' in the Checkpoints table and roll back to it.</source>
        <translation>Choose the last good checkpoint of run '%1' in the Checkpoints table and roll back to it.</translation>
    </message>
    <message>
        <source>Roll back to checkpoint #%1 (%2), the newest one before it.</source>
        <translation>Roll back to checkpoint #%1 (%2), the newest one before it.</translation>
    </message>
    <message>
        <source>Roll back to the start of the run, the newest point before it.</source>
        <translation>Roll back to the start of the run, the newest point before it.</translation>
    </message>
    <message>
        <source>Name both the epoch and the step to resume after.</source>
        <translation>Name both the epoch and the step to resume after.</translation>
    </message>
    <message>
        <source>Select two or more runs to compare.</source>
        <translation>Select two or more runs to compare.</translation>
    </message>
    <message>
        <source>Pull run '%1' into another home, or resume it here.</source>
        <translation>Pull run '%1' into another home, or resume it here.</translation>
    </message>
    <message>
        <source>Resume '%1'</source>
        <translation>Resume '%1'</translation>
    </message>
    <message>
        <source>Show its checkpoints</source>
        <translation>Show its checkpoints</translation>
    </message>
    <message>
        <source>Train on the CPU</source>
        <translation>Train on the CPU</translation>
    </message>
</context>
<context>
    <name>savepoint::ui::SessionOutcomeWords</name>
    <message>
        <source>epoch %1, step %2</source>
        <translation>epoch %1, step %2</translation>
    </message>
    <message>
        <source>the loss became NaN at %1</source>
        <translation>the loss became NaN at %1</translation>
    </message>
    <message>
        <source>the loss became infinite at %1</source>
        <translation>the loss became infinite at %1</translation>
    </message>
    <message>
        <source>the gradient of %1 became NaN or infinite at %2</source>
        <translation>the gradient of %1 became NaN or infinite at %2</translation>
    </message>
    <message>
        <source>%1. No checkpoint was saved before it: use “New run…” with a learning rate smaller than %2.</source>
        <translation>%1. No checkpoint was saved before it: use “New run…” with a learning rate smaller than %2.</translation>
    </message>
    <message>
        <source>the last good checkpoint is #%1 at %2</source>
        <translation>the last good checkpoint is #%1 at %2</translation>
    </message>
    <message>
        <source>%1; %2. A plain resume would diverge again: use “Roll back to the last good checkpoint…” with a learning rate smaller than %3.</source>
        <translation>%1; %2. A plain resume would diverge again: use “Roll back to the last good checkpoint…” with a learning rate smaller than %3.</translation>
    </message>
    <message>
        <source>%1; %2. A plain resume would diverge again: use “New run…” with a learning rate smaller than %3.</source>
        <translation>%1; %2. A plain resume would diverge again: use “New run…” with a learning rate smaller than %3.</translation>
    </message>
    <message>
        <source>Stopped at %1, which a checkpoint already holds.</source>
        <translation>Stopped at %1, which a checkpoint already holds.</translation>
    </message>
    <message>
        <source>Emergency checkpoint at %1 written in %2 ms of the %3 s grace period; stopped.</source>
        <translation>Emergency checkpoint at %1 written in %2 ms of the %3 s grace period; stopped.</translation>
    </message>
    <message>
        <source>Too late: a real instance would have been gone.</source>
        <translation>Too late: a real instance would have been gone.</translation>
    </message>
    <message>
        <source>Stopped at %1, but the emergency checkpoint could not be written.</source>
        <translation>Stopped at %1, but the emergency checkpoint could not be written.</translation>
    </message>
    <message>
        <source>Stopped at %1; worker 0 writes the job&apos;s emergency checkpoint.</source>
        <translation>Stopped at %1; worker 0 writes the job&apos;s emergency checkpoint.</translation>
    </message>
    <message>
        <source>after %1 (global step %2); nothing beyond the regular checkpoints was saved</source>
        <translation>after %1 (global step %2); nothing beyond the regular checkpoints was saved</translation>
    </message>
    <message>
        <source>during the validation after %1; the epoch&apos;s validation was not recorded</source>
        <translation>during the validation after %1; the epoch&apos;s validation was not recorded</translation>
    </message>
    <message>
        <source>worker %1 was lost at %2</source>
        <translation>worker %1 was lost at %2</translation>
    </message>
    <message>
        <source>a worker was lost at %1</source>
        <translation>a worker was lost at %1</translation>
    </message>
    <message>
        <source>%1 steps, validation loss %2, accuracy %3</source>
        <translation>%1 steps, validation loss %2, accuracy %3</translation>
    </message>
    <message>
        <source>run “%1” already finished at global step %2; nothing to resume (to roll back, select an earlier checkpoint in the Checkpoints table and use “Resume from here”)</source>
        <translation>run “%1” already finished at global step %2; nothing to resume (to roll back, select an earlier checkpoint in the Checkpoints table and use “Resume from here”)</translation>
    </message>
    <message>
        <source>by request at %1 (global step %2)</source>
        <translation>by request at %1 (global step %2)</translation>
    </message>
    <message>
        <source>checkpoints could not be written; gave up after retries</source>
        <translation>checkpoints could not be written; gave up after retries</translation>
    </message>
    <message>
        <source>checkpoints cannot be committed: %1</source>
        <translation>checkpoints cannot be committed: %1</translation>
    </message>
</context>
</TS>
