// Only in builds made for the negative controls (SAVEPOINT_PLANTED_BUGS); the
// bugs' names exist nowhere else.
#include "platform/planted_bugs.h"

#ifdef SAVEPOINT_PLANTED_BUGS

#include <cstdlib>
#include <cstring>

namespace savepoint {

bool planted_bug(PlantedBug bug) {
    static const char* const names[] = {
#define SAVEPOINT_PLANTED_BUG_NAME(id, name) name,
        SAVEPOINT_PLANTED_BUG_LIST(SAVEPOINT_PLANTED_BUG_NAME)
#undef SAVEPOINT_PLANTED_BUG_NAME
    };
    static const char* const planted = std::getenv("SAVEPOINT_PLANT_BUG");
    return planted && std::strcmp(planted, names[static_cast<int>(bug)]) == 0;
}

}  // namespace savepoint

#endif
