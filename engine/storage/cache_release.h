// Hands the lines of a buffer back to memory once the I/O thread has read it.
//
// A copy-free snapshot keeps the optimizer's live buffers; the I/O thread reads
// them (the kernel's copy into the page cache, two SHA-256 passes), and ten
// steps later the training thread's first Adam pass after the next capture
// writes every byte of them again (they are its spares by then). Lines the
// I/O core has read are still held by its caches, so each of those writes must
// first take the line from the other core, which made that pass several times
// slower (docs/PERFORMANCE.md, cache release). Writing the lines back
// and dropping them from every cache here, on the I/O thread and while the
// disk flushes, makes that pass fetch them from memory instead, which is cheaper.
//
// Only a performance hint: the bytes are unchanged and any thread may still
// read or write them. A no-op where the instruction set has no cache-line
// flush that user code may use.
#pragma once

#include <cstddef>

namespace savepoint {

void release_from_caches(const void* data, std::size_t bytes);

}  // namespace savepoint
