#ifndef LOOKSTUDIO_TEMPREGISTRY_H
#define LOOKSTUDIO_TEMPREGISTRY_H

/* In-flight temporary output files and the SIGINT/SIGTERM handler that removes them.
 *
 * The table is fixed-size static memory, so the handler touches no lock and no allocator: it only reads slots whose
 * path is completely written (published with a release store) and calls unlink(2), write(2) and, when the process
 * is to end, sigaction(2) and raise(3) — all async-signal-safe. Registration takes a mutex (never in the handler). */

#include <stddef.h>

/* How the handler ends an interrupt. */
typedef enum {
    /* Remove every registered file, then end the process by the same signal (exit status 130 or 143 in a shell). */
    LSTEMP_EXIT = 0,
    /* Remove every registered file, record the signal and return; a second signal ends the process as LSTEMP_EXIT.
     * Batch code polls lstemp_interrupted() and starts no new work. */
    LSTEMP_STOP = 1
} lstemp_mode;

/* Registers `path` (copied) as a temporary file to remove on an interrupt; returns its slot, or -1 when the path is
 * longer than the slot or the table is full (the file is then not removed on an interrupt). */
int lstemp_register(const char *path);
/* Forgets a slot once its file has been renamed into place or removed. Ignores -1. */
void lstemp_unregister(int slot);
/* Forgets the slot holding `path`, if any. */
void lstemp_unregister_path(const char *path);
/* Registered files right now. */
int lstemp_count(void);
/* 1 when `path` is registered (for tests). */
int lstemp_contains(const char *path);
/* Installs the handler for SIGINT and SIGTERM in `mode`; 0 on success, else errno. Calling it again changes mode. */
int lstemp_install(int mode);
/* The signal that interrupted the process (SIGINT or SIGTERM), or 0. */
int lstemp_interrupted(void);
/* Removes every registered file now (what the handler does); returns how many were removed. */
int lstemp_remove_all(void);

/* Tells the handler a status line is drawn on stderr (1) or not (0): an interrupt that ends the process clears it. */
void lstemp_set_status_line(int drawn);

/* The line an interrupt that ends the process writes on stderr (what was interrupted and what it left), copied
 * now, up to 1023 bytes; NULL for none. */
void lstemp_set_exit_message(const char *text);

/* A held section: work an interrupt must not cut in two (a catalog transaction and its commit). From
 * lstemp_hold_begin to the matching lstemp_hold_end, the first SIGINT or SIGTERM is held: the handler notes it and
 * returns, removing nothing. A second one meanwhile is handled at once, as if no section were open, so a section
 * that hangs can still be left. Sections nest; the outermost end takes the held signal. */
void lstemp_hold_begin(void);
/* Ends a section. At the outermost end, a held signal is handled as the handler would have when `failed` is
 * non-zero or the mode is LSTEMP_STOP (in LSTEMP_EXIT that ends the process); otherwise it is left to the caller,
 * whose work is done. Returns the held signal, or 0. */
int lstemp_hold_end(int failed);
#endif
