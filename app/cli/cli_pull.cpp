// savepoint-cli pull: runs brought back from S3-compatible storage into a
// home (a fresh machine after the last one was lost), ready to resume.
#include "cli_commands.h"

#include "platform/errors.h"
#include "remote/remote_pull.h"
#include "training/train_config.h"

namespace savepoint {

int pull_command(const CliFlags& f, const std::string& resolved_home, std::ostream& out, std::ostream& err) {
    PullRequest q;
    q.home = resolved_home;
    q.uri = parse_s3_uri(f.remote);
    q.settings = s3_settings_from_environment();
    if (!f.run_name.empty()) validate_run_name(f.run_name);
    q.run = f.run_name;
    const auto pulled = pull_runs(q, [&](const std::string& line) { err << "warning: " << line << "\n"; });
    for (const auto& r : pulled) {
        out << "pulled run '" << r.name << "'" << (r.added_to_existing ? " (newer checkpoints added)" : "") << ": "
            << r.verified << " checkpoint(s), " << r.bytes << " bytes, every SHA-256 checked; head #" << r.head << "\n";
        for (const auto& n : r.notes) out << "  refused " << n << "\n";
        out << "resume with: savepoint-cli resume --run " << r.name << " --home " << resolved_home
            << (r.added_to_existing ? "" : " --remote " + f.remote) << "\n";
    }
    return 0;
}

}  // namespace savepoint
