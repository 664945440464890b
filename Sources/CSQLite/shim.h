#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. With its memory
// statistics on (the default), SQLite takes a global mutex around every
// allocation to count it; relctl reads no statistics and sets no heap limit.
// Only takes effect before SQLite is first initialised (the first open).
static inline int relctl_sqlite3_memstatus_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
