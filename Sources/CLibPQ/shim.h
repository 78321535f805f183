#ifndef SWITCHYARD_CLIBPQ_SHIM_H
#define SWITCHYARD_CLIBPQ_SHIM_H

/* libpq, as found through `pkg-config --cflags libpq` (-I/usr/include/postgresql). */
#include <libpq-fe.h>

/*
 * Character-literal and function-like macros are not imported into Swift;
 * these inline helpers expose them.
 */

/** Diagnostic field code of the five-character SQLSTATE. */
static inline int cpq_diag_sqlstate(void) { return PG_DIAG_SQLSTATE; }

/** Diagnostic field code of the primary, human-readable message. */
static inline int cpq_diag_message_primary(void) { return PG_DIAG_MESSAGE_PRIMARY; }

/** Diagnostic field code of the violated constraint's name. */
static inline int cpq_diag_constraint_name(void) { return PG_DIAG_CONSTRAINT_NAME; }

/** Frees a notification returned by PQnotifies (PQfreeNotify is a macro). */
static inline void cpq_free_notify(PGnotify *notify) { PQfreemem(notify); }

/** A notice processor that drops every notice. */
static inline void cpq_drop_notice(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

/** Installs the dropping notice processor on a connection. */
static inline void cpq_silence_notices(PGconn *conn) {
    PQsetNoticeProcessor(conn, cpq_drop_notice, (void *)0);
}

/*
 * Process spawning for the cluster tools (initdb, pg_ctl). glibc declares these only under
 * _GNU_SOURCE, which the Swift Glibc module is not built with.
 */
#include <spawn.h>

#if defined(__GLIBC__)
extern char **environ;
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
#endif

/** Closes every descriptor from `from` upwards in the child, so a server it starts inherits none. */
static inline int cpq_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
#if defined(__GLIBC__)
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
    (void)actions;
    (void)from;
    return 0;
#endif
}

/** Changes the child's working directory before it runs. */
static inline int cpq_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
#if defined(__GLIBC__)
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return 0;
#endif
}

/** The process environment (`environ`), for posix_spawn. */
static inline char **cpq_environ(void) {
#if defined(__GLIBC__)
    return environ;
#else
    return (char **)0;
#endif
}

#endif
