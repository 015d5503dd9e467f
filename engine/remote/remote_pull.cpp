#include "remote/remote_pull.h"
#include "platform/planted_bugs.h"

#include "platform/errors.h"
#include "registry/checkpoint_remotes.h"
#include "registry/home.h"
#include "registry/registry.h"
#include "registry/run_lock.h"
#include "registry/run_restore.h"
#include "remote/remote_check.h"
#include "remote/remote_manifest.h"
#include "remote/s3_client.h"
#include "storage/durable_io.h"
#include "storage/fault_injection.h"
#include "storage/sha256.h"

#include <unistd.h>

#include <map>
#include <memory>
#include <set>

namespace savepoint {
namespace {

// One run's manifests, and what this home already has of it.
struct Plan {
    std::string name;
    std::map<std::int64_t, Manifest> manifests;  // by checkpoint id
    std::optional<RunRow> existing;
    std::set<std::int64_t> local_ids;
    std::set<std::int64_t> verified;
    std::map<std::int64_t, std::string> refused;  // id -> why
    std::optional<std::int64_t> head;
};

std::optional<std::int64_t> newest_verified_ancestor(const Plan& p, std::int64_t id) {
    std::set<std::int64_t> seen;
    std::optional<std::int64_t> cur = id;
    while (cur && !seen.count(*cur)) {
        seen.insert(*cur);
        if (p.verified.count(*cur) || p.local_ids.count(*cur)) return cur;
        auto it = p.manifests.find(*cur);
        if (it == p.manifests.end()) return std::nullopt;
        cur = it->second.checkpoint.parent_id;
    }
    return std::nullopt;
}

// A run here already: refused unless the remote's newest checkpoint descends from this home's head.
void check_existing(Registry& reg, Plan& p, const S3Uri& uri) {
    // Ids as the files name them, as the manifests do (a row's own id may differ: run_restore.h).
    std::optional<std::int64_t> local_head;
    for (const auto& c : reg.checkpoints(p.existing->id)) {
        p.local_ids.insert(c.id_in_file());
        if (p.existing->head_checkpoint_id && c.id == *p.existing->head_checkpoint_id) local_head = c.id_in_file();
    }
    const std::int64_t remote_newest = p.manifests.rbegin()->first;
    bool descends = false;
    std::set<std::int64_t> seen;
    for (std::optional<std::int64_t> cur = remote_newest; cur && !seen.count(*cur);) {
        seen.insert(*cur);
        if (local_head && *cur == *local_head) descends = true;
        auto it = p.manifests.find(*cur);
        cur = it == p.manifests.end() ? std::nullopt : it->second.checkpoint.parent_id;
    }
    // Retention deletes remote manifests too, which can break that chain: on the head's own branch, a later
    // checkpoint is a descendant all the same (a branch is one line).
    const Manifest& newest = p.manifests.rbegin()->second;
    if (!descends && local_head)
        if (auto here = reg.checkpoint(*p.existing->head_checkpoint_id);
            here && newest.checkpoint.global_step > here->global_step)
            for (const auto& mine : reg.branches(p.existing->id))
                for (const auto& theirs : newest.branches)
                    if (mine.id == here->branch_id && theirs.id == newest.checkpoint.branch_id &&
                        restored_same_branch(mine, theirs))
                        descends = true;
    const bool newer = !p.local_ids.count(remote_newest);
    if (!newer || !descends)
        throw InputError(
            "run",
            "a run this home does not have, or one whose copy in " + uri.text() + " is newer on the same lineage",
            "run '" + p.name + "' is here with head " +
                (local_head ? "#" + std::to_string(*local_head) : std::string("none")) + "; the remote's newest is #" +
                std::to_string(remote_newest) + (newer ? ", on another lineage" : ", which this home has"))
            .with(Remedy{Remedy::Kind::PullElsewhere, p.name});
}

std::string hex_of(Sha256& h) {
    const auto d = h.finish();
    return to_hex(d.data(), d.size());
}

// Downloads one checkpoint file; true when its size and SHA-256 are the manifest's (the file is then in place).
bool download(S3Client& client, const S3Uri& uri, Registry& reg, Plan& p, const Manifest& m,
              std::vector<std::string>& written) {
    const CheckpointRow& c = m.checkpoint;
    const std::string rel = checkpoint_dir_relative(p.name) + checkpoint_file_name(c.id);
    const std::string dest = reg.absolute(rel);
    make_directories(parent_directory(dest));
    DurableWriter out(dest, static_cast<std::uint64_t>(c.bytes));
    Sha256 h;
    std::int64_t got = 0;
    try {
        client.get(remote_file_key(uri, p.name, c.id), [&](const char* data, std::size_t n) {
            h.update(data, n);
            out.write(data, n);
            got += static_cast<std::int64_t>(n);
        });
    } catch (const S3Error& e) {
        p.refused[c.id] = std::string("cannot be downloaded: ") + e.what();
        return false;
    }
    const std::string sha = hex_of(h);
    // Negative control (docs/RELIABILITY.md): any bytes are taken.
    const bool check = !planted_bug(PlantedBug::PullSkipSha256);
    if (check && (got != c.bytes || sha != m.file_sha256)) {
        p.refused[c.id] = "its object in " + uri.text() + " is not the file its manifest names: expected " +
                          std::to_string(c.bytes) + " bytes with SHA-256 " + m.file_sha256 + ", found " +
                          std::to_string(got) + " bytes with SHA-256 " + sha;
        return false;
    }
    out.commit();
    written.push_back(dest);
    return true;
}

RestoredRun restoration(const Plan& p, const S3Uri& uri, const std::vector<SessionRow>& sessions,
                        const std::vector<MetricRow>& metrics) {
    const Manifest& newest = p.manifests.rbegin()->second;
    const Manifest& head = p.manifests.at(*p.head);
    RestoredRun r;
    r.run = newest.run;
    r.run.status = RunStatus::Interrupted;
    r.run.global_step = head.checkpoint.global_step;
    r.run.active_branch_id = head.checkpoint.branch_id;
    r.branches = newest.branches;
    r.head = p.head;
    for (const auto& [id, m] : p.manifests) {
        if (p.local_ids.count(id)) continue;
        CheckpointRow c = m.checkpoint;
        c.branch_id = m.checkpoint.branch_id;
        c.path = checkpoint_dir_relative(p.name) + checkpoint_file_name(id);
        if (p.verified.count(id)) {
            c.state = CheckpointState::Committed;
        } else {
            c.state = CheckpointState::Corrupt;
            c.state_detail = "refused by pull: " + p.refused.at(id);
        }
        r.checkpoints.push_back(c);
    }
    r.sessions = sessions;
    // Steps after the head were lost with the machine; a resume trains them again.
    for (const auto& m : metrics)
        if (m.global_step <= head.checkpoint.global_step) r.metrics.push_back(m);
    r.note = "pulled from " + uri.text() + ": " + std::to_string(p.verified.size()) + " checkpoint(s) verified" +
             (p.refused.empty() ? "" : ", " + std::to_string(p.refused.size()) + " refused") + "; head #" +
             std::to_string(*p.head);
    return r;
}

}  // namespace

std::vector<PulledRun> pull_runs(const PullRequest& q, const std::function<void(const std::string&)>& say_fn) {
    auto say = [&](const std::string& s) {
        if (say_fn) say_fn(s);
    };
    S3Client client(q.settings, q.uri.bucket);
    check_remote_access(client, q.uri);

    std::map<std::string, std::vector<std::int64_t>> found;
    for (const S3Object& o : client.list(q.uri.prefix.empty() ? "" : q.uri.prefix + "/")) {
        std::string run;
        std::int64_t id = 0;
        if (parse_manifest_key(q.uri, o.key, run, id)) found[run].push_back(id);
    }
    std::string names;
    for (const auto& [name, ids] : found) names += (names.empty() ? "" : ", ") + name;
    if (found.empty())
        throw InputError("remote", "a prefix holding Savepoint runs (RUN/manifests/ckpt-….json)",
                         "no manifest under " + q.uri.text());
    if (!q.run.empty() && !found.count(q.run))
        throw InputError("run", "a run with manifests under " + q.uri.text(), "'" + q.run + "'",
                         "(found: " + names + ")");

    make_directories(q.home);
    Registry reg(q.home);
    std::vector<Plan> plans;
    std::vector<std::unique_ptr<FileLock>> locks;
    for (const auto& [name, ids] : found) {
        if (!q.run.empty() && name != q.run) continue;
        Plan p;
        p.name = name;
        for (std::int64_t id : ids) {
            try {
                Manifest m =
                    parse_manifest(nlohmann::json::parse(client.get_bytes(remote_manifest_key(q.uri, name, id))));
                if (m.run.name != name || m.checkpoint.id != id)
                    throw std::runtime_error("it names another checkpoint");
                p.manifests[id] = m;
            } catch (const S3Error& e) {
                throw;
            } catch (const std::exception& e) {
                say("manifest of checkpoint #" + std::to_string(id) + " of run '" + name + "' skipped: " + e.what());
            }
        }
        if (p.manifests.empty()) continue;
        // Held until the rows are in: no trainer writes the run meanwhile, and no other process's recovery
        // takes the files downloaded into a directory no run owns yet for orphans (it skips a locked run).
        locks.push_back(std::make_unique<FileLock>(run_lock_path(q.home, name), false, "run '" + name + "'"));
        p.existing = reg.find_run(name);
        if (p.existing) check_existing(reg, p, q.uri);
        plans.push_back(std::move(p));
    }

    // Every file is downloaded and checked before any row is written; a disk error undoes the files.
    std::vector<std::string> written;
    std::vector<PulledRun> report;
    try {
        for (Plan& p : plans) {
            PulledRun out;
            out.name = p.name;
            for (const auto& [id, m] : p.manifests) {
                if (p.local_ids.count(id)) continue;
                if (download(client, q.uri, reg, p, m, written)) {
                    p.verified.insert(id);
                    out.bytes += m.checkpoint.bytes;
                } else {
                    say("checkpoint #" + std::to_string(id) + " of run '" + p.name + "' refused: " + p.refused[id]);
                }
            }
            p.head = newest_verified_ancestor(p, p.manifests.rbegin()->first);
            if (!p.head)
                throw InputError("remote",
                                 "at least one checkpoint of run '" + p.name + "' that passes its SHA-256 check",
                                 std::to_string(p.refused.size()) + " refused", "(nothing was registered)");
            out.head = *p.head;
            out.verified = static_cast<int>(p.verified.size());
            out.refused = static_cast<int>(p.refused.size());
            for (const auto& [id, why] : p.refused) out.notes.push_back("#" + std::to_string(id) + ": " + why);
            report.push_back(out);
        }
        for (Plan& p : plans) {
            std::vector<SessionRow> sessions;
            std::vector<MetricRow> metrics;
            if (!p.existing) {
                try {
                    parse_metrics(nlohmann::json::parse(client.get_bytes(remote_metrics_key(q.uri, p.name))), sessions,
                                  metrics);
                } catch (const std::exception& e) {
                    say("run '" + p.name + "': its metrics were not restored: " + e.what());
                    sessions.clear();
                    metrics.clear();
                }
            }
            RestoredRun r = restoration(p, q.uri, sessions, metrics);
            std::int64_t run_id = 0;
            std::map<std::int64_t, std::int64_t> placed;  // file id -> row id
            if (p.existing) {
                run_id = p.existing->id;
                add_restored_checkpoints(reg, run_id, r, &placed);
            } else {
                run_id = restore_run(reg, r, &placed);
            }
            // They are in the remote already: a resume --remote does not upload them again.
            for (std::int64_t id : p.verified) {
                CheckpointRemote cr;
                cr.checkpoint_id = placed.at(id);
                cr.run_id = run_id;
                cr.remote = q.uri.text();
                cr.state = RemoteState::Uploaded;
                cr.detail = "pulled";
                set_checkpoint_remote(reg, cr);
            }
            for (auto& out : report)
                if (out.name == p.name) out.added_to_existing = p.existing.has_value();
        }
    } catch (...) {
        for (const auto& f : written) ::unlink(f.c_str());
        throw;
    }
    return report;
}

}  // namespace savepoint
