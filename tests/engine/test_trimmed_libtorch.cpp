// The trimmed libtorch_cpu (packaging/trim-libtorch.sh, TrimLibTorch.cmake):
// every Savepoint process must load the copy, not the system file (else the
// start-up gain is silently gone), none of the dropped libraries may be loaded
// anyway, and every symbol libtorch_cpu needs from another library must still
// resolve in the process (else a dropped entry was not unused after all).
#include <torch/torch.h>

#include <QtTest>

#include <dlfcn.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace {

std::vector<std::string> mapped_files() {
    std::ifstream maps("/proc/self/maps");
    std::set<std::string> files;
    std::string line;
    while (std::getline(maps, line)) {
        const auto slash = line.find('/');
        if (slash != std::string::npos) files.insert(line.substr(slash));
    }
    return {files.begin(), files.end()};
}

std::string base_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

// Every libtorch_cpu this process has mapped (one, if all is well).
std::vector<std::string> loaded_torch_cpu() {
    std::vector<std::string> out;
    for (const auto& f : mapped_files())
        if (base_name(f).rfind("libtorch_cpu.so", 0) == 0) out.push_back(f);
    return out;
}

// The lines a command prints (without their newlines); `status` gets pclose's.
std::vector<std::string> command_lines(const std::string& command, int& status) {
    std::vector<std::string> out;
    status = -1;
    FILE* p = ::popen(command.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    while (std::fgets(buf, sizeof buf, p)) {
        std::string line(buf);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r' || line.back() == ' ')) line.pop_back();
        out.push_back(line);
    }
    status = ::pclose(p);
    return out;
}

// The GNU build-id note, as `readelf -n` prints it: the same id means the same build.
std::string build_id(const std::string& file) {
    int status = 0;
    for (const auto& line : command_lines("readelf -n '" + file + "'", status))
        if (const auto at = line.find("Build ID: "); at != std::string::npos) return line.substr(at + 10);
    return {};
}

std::vector<std::string> lines_of(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line))
        if (!line.empty()) out.push_back(line);
    return out;
}

}  // namespace

class TestTrimmedLibTorch : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() {
#ifndef SAVEPOINT_TRIMMED_LIBTORCH_DIR
        QSKIP("built with SAVEPOINT_TRIM_LIBTORCH=OFF (or without patchelf)");
#endif
    }

    void theCopyIsLoadedNotTheSystemFile() {
#ifdef SAVEPOINT_TRIMMED_LIBTORCH_DIR
        // A LibTorch op, so the library is certainly in use.
        QCOMPARE(torch::ones({3}).sum().item<float>(), 3.0f);
        const std::string dir = SAVEPOINT_TRIMMED_LIBTORCH_DIR;
        const auto torch_cpu = loaded_torch_cpu();
        QCOMPARE(torch_cpu.size(), std::size_t{1});
        QVERIFY2(torch_cpu[0].rfind(dir + "/", 0) == 0, ("libtorch_cpu loaded from " + torch_cpu[0]).c_str());
#endif
    }

    // A copy made from another build of libtorch (the system one upgraded since)
    // would run next to a libc10 it was not built with.
    void theCopyIsOfTheInstalledLibTorch() {
#ifdef SAVEPOINT_TRIMMED_LIBTORCH_DIR
        const auto loaded = loaded_torch_cpu();
        QCOMPARE(loaded.size(), std::size_t{1});
        const std::string& copy = loaded.front();
        const std::string system_id = build_id(SAVEPOINT_SYSTEM_TORCH_CPU);
        if (system_id.empty()) QSKIP("the system libtorch_cpu has no build-id note");
        QCOMPARE(build_id(copy), system_id);
#endif
    }

    void noDroppedLibraryIsLoaded() {
#ifdef SAVEPOINT_TRIMMED_LIBTORCH_DIR
        const auto dropped = lines_of(std::string(SAVEPOINT_TRIMMED_LIBTORCH_DIR) + "/removed-needed.txt");
        // A LibTorch linked with --as-needed (the official archives) has nothing to drop.
        if (dropped.empty()) QSKIP("this libtorch_cpu needs every library it lists");
        const std::set<std::string> dropped_set(dropped.begin(), dropped.end());
        for (const auto& f : mapped_files())
            QVERIFY2(!dropped_set.count(base_name(f)), ("dropped library still loaded: " + f).c_str());
        // The point of it all on Debian (OpenCV, FFmpeg... dropped): a fraction of the
        // 288 shared objects the system file pulls in.
        if (dropped.size() >= 10) {
            std::size_t shared_objects = 0;
            for (const auto& f : mapped_files())
                if (f.find(".so") != std::string::npos) ++shared_objects;
            QVERIFY2(shared_objects < 120, ("shared objects mapped: " + std::to_string(shared_objects)).c_str());
        }
#endif
    }

    void everySymbolLibTorchNeedsResolves() {
#ifdef SAVEPOINT_TRIMMED_LIBTORCH_DIR
        const auto loaded = loaded_torch_cpu();
        QCOMPARE(loaded.size(), std::size_t{1});
        int status = 0;
        const auto listing = command_lines("nm -D --undefined-only '" + loaded.front() + "'", status);
        QCOMPARE(status, 0);
        int checked = 0;
        std::vector<std::string> missing;
        for (const auto& line : listing) {
            // "                 U name@VERSION"; weak ('w', 'v') references may be absent by design.
            const auto sp = line.find_last_of(' ');
            if (sp == std::string::npos || sp < 1 || line[sp - 1] != 'U') continue;
            std::string name = line.substr(sp + 1);
            std::string version;
            if (const auto at = name.find('@'); at != std::string::npos) {
                version = name.substr(name.find_first_not_of('@', at));
                name.resize(at);
            }
            void* sym = version.empty() ? ::dlsym(RTLD_DEFAULT, name.c_str())
                                        : ::dlvsym(RTLD_DEFAULT, name.c_str(), version.c_str());
            if (!sym) missing.push_back(name + (version.empty() ? "" : "@" + version));
            ++checked;
        }
        QVERIFY2(checked > 500, ("undefined symbols read: " + std::to_string(checked)).c_str());
        QVERIFY2(missing.empty(), ("unresolved: " + (missing.empty() ? std::string() : missing.front()) + " and " +
                                   std::to_string(missing.size() ? missing.size() - 1 : 0) + " more")
                                      .c_str());
#endif
    }
};

QTEST_GUILESS_MAIN(TestTrimmedLibTorch)
#include "test_trimmed_libtorch.moc"
