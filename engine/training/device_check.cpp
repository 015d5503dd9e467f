// Trainer: the device a session trains on, its record in each checkpoint, and
// the warning when a resume trains on another device than its checkpoint was.
#include "cuda/cuda_determinism.h"
#include "cuda/device_probe.h"
#include "platform/planted_bugs.h"
#include "training/cuda_kernel_check.h"
#include "training/device_choice.h"
#include "training/trainer_impl.h"

namespace savepoint {

namespace {

std::string differences_text(const std::vector<DeviceDifference>& d) {
    std::string out;
    for (const auto& x : d) out += (out.empty() ? "" : "; ") + x.what + " " + x.saved + " -> " + x.now;
    return out;
}

}  // namespace

bool trains_on_cuda(const TrainConfig& cfg) {
    return cfg.device == "cuda" || (cfg.device == "auto" && cuda_unavailable_reason().empty());
}

void refuse_unusable_device(const TrainConfig& cfg) {
    if (cfg.device == "cuda") {
        const std::string why = cuda_unavailable_reason();
        if (!why.empty())
            throw InputError("device", "a CUDA device", "none",
                             InputError::Says{"expected a CUDA device, found none: " + why})
                .with(Remedy{Remedy::Kind::TrainOnCpu});
    }
    if (trains_on_cuda(cfg)) check_cublas_workspace();
}

void Trainer::Impl::choose_device() {
    refuse_unusable_device(cfg);  // a resumed run's stored device
    // A data-parallel job's worker has the GPU of its local rank (ProcessGroup::join made it current).
    const torch::Device gpu =
        req.group ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(req.group->env().local_rank))
                  : torch::Device(torch::kCUDA, 0);
    net.device = trains_on_cuda(cfg) ? gpu : torch::Device(torch::kCPU);
    if (net.device.is_cuda()) use_deterministic_cuda();  // before the session's first CUDA work
    dev.record = describe_device(net.device);
    dev.json = dev.record.to_json().dump();
    dev.name = net.device.is_cuda() ? "cuda (" + dev.record.name + ")"
                                    : "cpu (" + std::to_string(torch::get_num_threads()) +
                                          (torch::get_num_threads() == 1 ? " thread)" : " threads)");
}

void Trainer::Impl::check_resume_device(const CheckpointRow& from, const nlohmann::json& checkpoint_meta) {
    // The registry's record; the file's for a checkpoint pulled from a manifest made before the registry kept one.
    const DeviceRecord saved =
        DeviceRecord::from_json(from.device_json.empty() ? checkpoint_meta.value("device_record", nlohmann::json())
                                                         : nlohmann::json::parse(from.device_json, nullptr, false));
    const std::int64_t checkpoint_id = from.id;
    dev.changes = device_differences(saved, dev.record);
    // Negative control device-change-unsaid (docs/RELIABILITY.md): a resume elsewhere says nothing.
    if (planted_bug(PlantedBug::DeviceChangeUnsaid)) dev.changes.clear();
    if (dev.changes.empty()) return;
    dev.changed_from = "checkpoint #" + std::to_string(checkpoint_id) + " was trained on " + saved.summary();
}

void Trainer::Impl::announce_device_change() {
    if (dev.changes.empty()) return;
    // Another kind of device is said by the two summaries; within a kind, what differs is named.
    const bool other_kind = dev.changes.size() == 1 && dev.changes.front().what == "device";
    const std::string msg = "warning: " + dev.changed_from + "; this session trains on " + dev.record.summary() +
                            (other_kind ? std::string() : " (" + differences_text(dev.changes) + ")") +
                            ": training goes on, but its bits will differ from a run that never stopped";
    report.event(EventKind::DeviceChanged, msg, branch.resumed_from);
    report.observer().on_message(msg);
}

}  // namespace savepoint
