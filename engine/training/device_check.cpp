// Trainer: the device a session trains on, its record in each checkpoint, and
// the warning when a resume trains on another device than its checkpoint was.
#include "cuda/cuda_determinism.h"
#include "cuda/device_probe.h"
#include "storage/durable_io.h"  // planted_bug (negative controls)
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
            throw InputError(
                "device", "a CUDA device", "none",
                InputError::Says{"expected a CUDA device, found none: " + why + "; use --device cpu or auto"});
    }
    if (trains_on_cuda(cfg)) check_cublas_workspace();
}

void Trainer::Impl::choose_device() {
    refuse_unusable_device(cfg);  // a resumed run's stored device
    // A data-parallel job's worker has the GPU of its local rank (ProcessGroup::join made it current).
    const torch::Device gpu =
        req.group ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(req.group->env().local_rank))
                  : torch::Device(torch::kCUDA, 0);
    device = trains_on_cuda(cfg) ? gpu : torch::Device(torch::kCPU);
    if (device.is_cuda()) use_deterministic_cuda();  // before the session's first CUDA work
    device_record = describe_device(device);
    device_json = device_record.to_json().dump();
    device_name = device.is_cuda() ? "cuda (" + device_record.name + ")"
                                   : "cpu (" + std::to_string(torch::get_num_threads()) +
                                         (torch::get_num_threads() == 1 ? " thread)" : " threads)");
}

void Trainer::Impl::check_resume_device(const CheckpointRow& from, const nlohmann::json& checkpoint_meta) {
    // The registry's record; the file's for a checkpoint pulled from a manifest made before the registry kept one.
    const DeviceRecord saved =
        DeviceRecord::from_json(from.device_json.empty() ? checkpoint_meta.value("device_record", nlohmann::json())
                                                         : nlohmann::json::parse(from.device_json, nullptr, false));
    const std::int64_t checkpoint_id = from.id;
    device_changes = device_differences(saved, device_record);
    // Negative control device-change-unsaid (docs/RELIABILITY.md): a resume elsewhere says nothing.
    if (planted_bug("device-change-unsaid")) device_changes.clear();
    if (device_changes.empty()) return;
    device_changed_from = "checkpoint #" + std::to_string(checkpoint_id) + " was trained on " + saved.summary();
}

void Trainer::Impl::announce_device_change() {
    if (device_changes.empty()) return;
    // Another kind of device is said by the two summaries; within a kind, what differs is named.
    const bool other_kind = device_changes.size() == 1 && device_changes.front().what == "device";
    const std::string msg = "warning: " + device_changed_from + "; this session trains on " + device_record.summary() +
                            (other_kind ? std::string() : " (" + differences_text(device_changes) + ")") +
                            ": training goes on, but its bits will differ from a run that never stopped";
    event(EventKind::DeviceChanged, msg, resumed_from);
    obs->on_message(msg);
}

}  // namespace savepoint
