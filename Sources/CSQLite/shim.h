#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call. With its memory
// statistics on (the default), SQLite takes a global mutex around every
// allocation to count it; relctl reads no statistics and sets no heap limit.
// Only takes effect before SQLite is first initialised (the first open).
static inline int relctl_sqlite3_memstatus_off(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// sqlite3_db_config is variadic too. Turns the database's own triggers
// (not TEMP ones, nor RETURNING) on (1) or off (0) for this connection, or
// only reports (-1); returns whether they are on after, or -1 when SQLite
// refused.
static inline int relctl_sqlite3_triggers(sqlite3 *db, int on) {
    int now = -1;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, on, &now) != SQLITE_OK) return -1;
    return now;
}

// relctl_row(base) is base + 1, base + 2, ...: one more at each call, counted
// in the connection's count, which the caller sets back to 0 before a
// statement. It numbers the rows an INSERT ... SELECT makes in the order its
// scan gives them, with none of a window function's buffering (a third of
// logging the rows an apply makes). Direct only: no trigger or view of a
// database can call it. Never SQLITE_DETERMINISTIC: SQLite would then be free
// to call it once for every row of a statement, and give them one number.
static inline void relctl_row_step(sqlite3_context *context, int argc, sqlite3_value **argv) {
    sqlite3_int64 *count = (sqlite3_int64 *)sqlite3_user_data(context);
    sqlite3_int64 number;
    (void)argc;
    *count += 1;
    if (__builtin_add_overflow(sqlite3_value_int64(argv[0]), *count, &number)) {
        sqlite3_result_error(context, "relctl_row: a number past the largest integer", -1);
        return;
    }
    sqlite3_result_int64(context, number);
}

// Makes relctl_row on db; returns its count, which SQLite frees with the
// connection, or NULL when it could not be made.
static inline sqlite3_int64 *relctl_sqlite3_row_function(sqlite3 *db) {
    sqlite3_int64 *count = (sqlite3_int64 *)sqlite3_malloc64(sizeof *count);
    if (!count) return 0;
    *count = 0;
    // On failure SQLite calls the destructor itself.
    if (sqlite3_create_function_v2(db, "relctl_row", 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, count, relctl_row_step, 0, 0, sqlite3_free) != SQLITE_OK) return 0;
    return count;
}
