/*
 * Restrictions a disposable plugin scanner process applies to itself before it opens a plugin file,
 * so that the plugin's initialisers cannot change files, reach the network or start programs.
 */
#ifndef SWITCHYARD_PLUGIN_SANDBOX_H
#define SWITCHYARD_PLUGIN_SANDBOX_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Prepares the process: closes every inherited file descriptor from 3 up, disables core dumps, asks
 * the kernel to kill the process when its parent dies, and caps its CPU time at `cpu_seconds`.
 * Always succeeds (each step is best effort).
 */
void sy_sandbox_prepare(unsigned int cpu_seconds);

/**
 * Installs a seccomp-bpf filter (after PR_SET_NO_NEW_PRIVS) that fails with EPERM: opening files for
 * writing, creating or truncating (open, openat, creat; openat2 altogether, its flags being out of the
 * filter's reach), making, removing, renaming or linking names, changing modes, owners, times or
 * extended attributes, sockets, execve, fork and vfork (clone without CLONE_THREAD), io_uring,
 * ptrace and cross-process memory access, and signals to any process but this one. `clone3` fails
 * with ENOSYS so that the C library falls back to `clone` for threads.
 *
 * Returns 0 when the filter is installed, -1 (with errno set) when it could not be.
 */
int sy_sandbox_restrict(void);

/**
 * Marks the calling process not dumpable: no core dumps, and other processes of the same user (a
 * plugin's scanner or worker among them) can neither read its memory through /proc nor trace it.
 * Returns 0 on success, -1 (with errno set) otherwise.
 */
int sy_process_keep_private(void);

/**
 * Names the calling thread where the kernel keeps it (at most 15 bytes; `ps`, profiles and the thread
 * itself read it back). Works under the filter above, which leaves `prctl` open.
 */
void sy_name_current_thread(const char *name);

/**
 * A non-blocking, close-on-exec eventfd for one thread to wake another waiting in `poll` (the filter above
 * leaves `eventfd2` open). Returns the descriptor, or -1 (with errno set).
 */
int sy_wake_fd(void);

#ifdef __cplusplus
}
#endif

#endif /* SWITCHYARD_PLUGIN_SANDBOX_H */
