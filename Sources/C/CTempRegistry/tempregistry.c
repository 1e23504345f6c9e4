#include "tempregistry.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Enough for every band writer of a parallel folder run, with room to spare. */
#define SLOTS 256
#define PATH_BYTES 4096

enum { FREE = 0, CLAIMED = 1, LIVE = 2 };

static char paths[SLOTS][PATH_BYTES];
static int states[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile sig_atomic_t interrupted = 0;
static volatile sig_atomic_t mode = LSTEMP_EXIT;
static volatile sig_atomic_t status_line = 0;
/* The exit message and its length; the handler reads the text only while the length is set. */
static char exit_message[1024];
static volatile sig_atomic_t exit_message_length = 0;
/* Open held sections, and the signal held in them (0 for none); both read by the handler, so atomic. */
static int hold_depth = 0;
static int held = 0;

int lstemp_register(const char *path) {
    size_t length = strlen(path);
    if (length >= PATH_BYTES) return -1;
    pthread_mutex_lock(&lock);
    int slot = -1;
    for (int i = 0; i < SLOTS; i++) {
        if (__atomic_load_n(&states[i], __ATOMIC_RELAXED) == FREE) {
            states[i] = CLAIMED;
            slot = i;
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    if (slot < 0) return -1;
    memcpy(paths[slot], path, length + 1);
    /* The handler reads the path only after it sees LIVE. */
    __atomic_store_n(&states[slot], LIVE, __ATOMIC_RELEASE);
    return slot;
}

void lstemp_unregister(int slot) {
    if (slot < 0 || slot >= SLOTS) return;
    __atomic_store_n(&states[slot], FREE, __ATOMIC_RELEASE);
}

void lstemp_unregister_path(const char *path) {
    for (int i = 0; i < SLOTS; i++) {
        if (__atomic_load_n(&states[i], __ATOMIC_ACQUIRE) == LIVE && strcmp(paths[i], path) == 0) {
            lstemp_unregister(i);
            return;
        }
    }
}

int lstemp_contains(const char *path) {
    for (int i = 0; i < SLOTS; i++) {
        if (__atomic_load_n(&states[i], __ATOMIC_ACQUIRE) == LIVE && strcmp(paths[i], path) == 0) return 1;
    }
    return 0;
}

int lstemp_count(void) {
    int n = 0;
    for (int i = 0; i < SLOTS; i++) n += __atomic_load_n(&states[i], __ATOMIC_ACQUIRE) == LIVE;
    return n;
}

int lstemp_remove_all(void) {
    int removed = 0;
    for (int i = 0; i < SLOTS; i++) {
        if (__atomic_load_n(&states[i], __ATOMIC_ACQUIRE) == LIVE && unlink(paths[i]) == 0) removed++;
    }
    return removed;
}

/* Whether the handler should hold `signal_number` for an open section rather than act on it. */
static int hold(int signal_number) {
    if (__atomic_load_n(&hold_depth, __ATOMIC_SEQ_CST) == 0) return 0;
    int none = 0;
    /* A signal already held: this second one acts. */
    if (!__atomic_compare_exchange_n(&held, &none, signal_number, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) return 0;
    if (__atomic_load_n(&hold_depth, __ATOMIC_SEQ_CST) > 0) return 1;
    /* The section ended between the two loads. Its end takes `held` only after lowering the depth, so either it
     * has taken this signal and answers for it, or this takes it back and acts. */
    int mine = signal_number;
    return !__atomic_compare_exchange_n(&held, &mine, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

static void handle(int signal_number) {
    int saved = errno;
    if (hold(signal_number)) {
        errno = saved;
        return;
    }
    if (mode == LSTEMP_STOP && !interrupted) {
        /* Recorded before the files go: a writer whose temporary vanishes under it must find the interrupt when it
         * asks why, or it reports its image as failed ("cannot write") instead of interrupted. */
        __atomic_store_n(&interrupted, signal_number, __ATOMIC_SEQ_CST);
        lstemp_remove_all();
        errno = saved;
        return;
    }
    lstemp_remove_all();
    interrupted = signal_number;
    if (status_line) {
        /* A status line redrawn with \r would otherwise stay on the terminal after the process is gone. */
        ssize_t ignored = write(2, "\r\033[K", 4);
        (void)ignored;
    }
    if (exit_message_length > 0) {
        ssize_t ignored = write(2, exit_message, (size_t)exit_message_length);
        (void)ignored;
    }
    /* End the process by the signal itself, so the parent sees it (a shell prints nothing and reports 128 + n). */
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
    raise(signal_number);
    errno = saved;
}

void lstemp_set_exit_message(const char *text) {
    exit_message_length = 0;
    if (text == NULL) return;
    size_t length = strlen(text);
    if (length >= sizeof exit_message) length = sizeof exit_message - 1;
    memcpy(exit_message, text, length);
    exit_message[length] = 0;
    exit_message_length = (sig_atomic_t)length;
}

int lstemp_install(int requested) {
    mode = requested == LSTEMP_STOP ? LSTEMP_STOP : LSTEMP_EXIT;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handle;
    sigemptyset(&action.sa_mask);
    sigaddset(&action.sa_mask, SIGINT);
    sigaddset(&action.sa_mask, SIGTERM);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, NULL) != 0 || sigaction(SIGTERM, &action, NULL) != 0) return errno;
    /* A parent may start us with the signals blocked (the mask survives exec): unblock them on this thread so the
     * handler runs at all. */
    sigset_t wanted;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGINT);
    sigaddset(&wanted, SIGTERM);
    return pthread_sigmask(SIG_UNBLOCK, &wanted, NULL);
}

int lstemp_interrupted(void) { return interrupted; }

void lstemp_set_status_line(int drawn) { status_line = drawn != 0; }

void lstemp_hold_begin(void) { __atomic_add_fetch(&hold_depth, 1, __ATOMIC_SEQ_CST); }

int lstemp_hold_end(int failed) {
    if (__atomic_sub_fetch(&hold_depth, 1, __ATOMIC_SEQ_CST) > 0) return 0;
    int signal_number = __atomic_exchange_n(&held, 0, __ATOMIC_SEQ_CST);
    if (signal_number != 0 && (failed || mode == LSTEMP_STOP)) {
        /* Handled with the signals blocked, as the handler itself runs (its sigaction mask), so a signal arriving
         * now cannot interleave with it. */
        sigset_t both, previous;
        sigemptyset(&both);
        sigaddset(&both, SIGINT);
        sigaddset(&both, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &both, &previous);
        handle(signal_number);
        pthread_sigmask(SIG_SETMASK, &previous, NULL);
    }
    return signal_number;
}
