#include "registry/checkpoint_list.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace savepoint {
namespace {

bool same_number(double a, double b) { return std::isnan(a) ? std::isnan(b) : a == b; }

}  // namespace

bool checkpoint_state_is_final(CheckpointState state) {
    return state == CheckpointState::Deleted || state == CheckpointState::Failed;
}

bool same_checkpoint_row(const CheckpointRow& a, const CheckpointRow& b) {
    return a.id == b.id && a.state == b.state && a.pinned == b.pinned && a.path == b.path && a.bytes == b.bytes &&
           a.sha256 == b.sha256 && a.params_sha256 == b.params_sha256 && a.state_detail == b.state_detail &&
           same_number(a.write_ms, b.write_ms) && same_number(a.stall_ms, b.stall_ms);
}

void CheckpointList::load(Registry& reg, std::int64_t run_id) { load(run_id, reg.checkpoints(run_id)); }

void CheckpointList::load(std::int64_t run_id, std::vector<CheckpointRow> rows) {
    run_id_ = run_id;
    rows_ = std::move(rows);
    open_.clear();
    for (const auto& c : rows_)
        if (!checkpoint_state_is_final(c.state)) open_.push_back(c.id);
}

bool CheckpointList::refresh(Registry& reg) {
    if (run_id_ == 0) return false;
    const std::vector<std::int64_t> asked = open_;
    bool changed = replace(reg.checkpoints_with_ids(asked), asked);
    auto added = reg.checkpoints_after(run_id_, rows_.empty() ? 0 : rows_.back().id);
    std::vector<std::int64_t> candidates = asked;
    for (const auto& c : added) candidates.push_back(c.id);
    if (!added.empty()) {
        rows_.insert(rows_.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
        changed = true;
    }
    update_open(candidates);
    return changed;
}

bool CheckpointList::reread(Registry& reg, std::int64_t id) {
    const bool changed = replace(reg.checkpoints_with_ids({id}), {id});
    std::vector<std::int64_t> candidates = open_;
    candidates.insert(std::upper_bound(candidates.begin(), candidates.end(), id), id);
    update_open(candidates);
    return changed;
}

std::vector<CheckpointRow> CheckpointList::open_rows() const {
    std::vector<CheckpointRow> out;
    out.reserve(open_.size());
    for (std::int64_t id : open_)
        if (const CheckpointRow* c = find(id)) out.push_back(*c);
    return out;
}

const CheckpointRow* CheckpointList::find(std::int64_t id) const {
    auto it = std::lower_bound(rows_.begin(), rows_.end(), id,
                               [](const CheckpointRow& c, std::int64_t v) { return c.id < v; });
    return it != rows_.end() && it->id == id ? &*it : nullptr;
}

CheckpointRow* CheckpointList::find(std::int64_t id) {
    return const_cast<CheckpointRow*>(static_cast<const CheckpointList*>(this)->find(id));
}

// `candidates` (ascending, duplicates allowed): every id that may be open now.
void CheckpointList::update_open(const std::vector<std::int64_t>& candidates) {
    open_.clear();
    for (std::int64_t id : candidates) {
        const CheckpointRow* c = find(id);
        if (c && !checkpoint_state_is_final(c->state) && (open_.empty() || open_.back() != id)) open_.push_back(id);
    }
}

// `fresh`: the rows read for the ids `asked` (both by id); an asked id with
// no fresh row was removed from the registry (its run deleted) and goes too.
bool CheckpointList::replace(std::vector<CheckpointRow> fresh, const std::vector<std::int64_t>& asked) {
    bool changed = false;
    auto f = fresh.begin();
    std::vector<std::int64_t> gone;
    for (std::int64_t id : asked) {
        CheckpointRow* it = find(id);
        if (!it) continue;  // not ours
        while (f != fresh.end() && f->id < id) ++f;
        if (f != fresh.end() && f->id == id && f->run_id == run_id_) {
            if (!same_checkpoint_row(*it, *f)) {
                *it = std::move(*f);
                changed = true;
            }
        } else {
            gone.push_back(id);
        }
    }
    if (!gone.empty()) {
        rows_.erase(
            std::remove_if(rows_.begin(), rows_.end(),
                           [&](const CheckpointRow& c) { return std::binary_search(gone.begin(), gone.end(), c.id); }),
            rows_.end());
        changed = true;
    }
    return changed;
}

}  // namespace savepoint
