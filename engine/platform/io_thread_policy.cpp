#include "platform/io_thread_policy.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>

namespace savepoint {

bool io_shares_training_cpus(int training_threads, std::size_t io_cpus, int cpus) {
    return training_threads + static_cast<int>(std::max<std::size_t>(io_cpus, 1)) > cpus;
}

#ifdef SCHED_BATCH
bool defer_wakeups_to_running_threads() {
    sched_param param{};
    param.sched_priority = 0;  // the only priority SCHED_BATCH takes
    return pthread_setschedparam(pthread_self(), SCHED_BATCH, &param) == 0;
}

bool runs_as_batch() {
    int policy = 0;
    sched_param param{};
    return pthread_getschedparam(pthread_self(), &policy, &param) == 0 && policy == SCHED_BATCH;
}
#else
bool defer_wakeups_to_running_threads() { return false; }
bool runs_as_batch() { return false; }
#endif

}  // namespace savepoint
