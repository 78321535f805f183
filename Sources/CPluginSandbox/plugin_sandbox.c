#define _GNU_SOURCE
#include "plugin_sandbox.h"

#include <errno.h>

#if defined(__linux__)

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define SY_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SY_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

void sy_sandbox_prepare(unsigned int cpu_seconds) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
    {
        long limit = sysconf(_SC_OPEN_MAX);
        if (limit < 0 || limit > 65536) limit = 65536;
        for (int fd = 3; fd < limit; fd++) close(fd);
    }
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (cpu_seconds > 0) {
        struct rlimit cpu = {cpu_seconds, cpu_seconds + 1};
        setrlimit(RLIMIT_CPU, &cpu);
    }
}

#ifdef SY_AUDIT_ARCH

/* The filter is built into a fixed array; each rule is a few instructions with short relative jumps. */
#define SY_MAX_FILTER 512

typedef struct {
    struct sock_filter code[SY_MAX_FILTER];
    unsigned short length;
    int overflow;
} sy_filter;

static void emit(sy_filter *filter, struct sock_filter instruction) {
    if (filter->length >= SY_MAX_FILTER) {
        filter->overflow = 1;
        return;
    }
    filter->code[filter->length++] = instruction;
}

#define SY_RET_ERRNO(error) (SECCOMP_RET_ERRNO | ((error) & SECCOMP_RET_DATA))
#define SY_ARG_LOW(n) (offsetof(struct seccomp_data, args) + (n) * sizeof(__u64))

/* `nr` fails with `error`, whatever its arguments. */
static void deny(sy_filter *filter, long nr, unsigned int error) {
    emit(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)nr, 0, 1));
    emit(filter, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SY_RET_ERRNO(error)));
}

/*
 * `nr` is decided by the low 32 bits of its argument `arg`: `test` is BPF_JSET (any bit of `value`) or
 * BPF_JEQ (equal to `value`); the call fails with EPERM when the test's result is `deny_when`, and is
 * allowed otherwise.
 */
static void decide_on_argument(sy_filter *filter, long nr, int arg, __u16 test, __u32 value, int deny_when) {
    emit(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (__u32)nr, 0, 4));
    emit(filter, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SY_ARG_LOW(arg)));
    if (deny_when) {
        emit(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | test | BPF_K, value, 0, 1));
    } else {
        emit(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | test | BPF_K, value, 1, 0));
    }
    emit(filter, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SY_RET_ERRNO(EPERM)));
    emit(filter, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

/* Syscalls refused outright. */
static const long denied_calls[] = {
#ifdef SYS_creat
    SYS_creat,
#endif
#ifdef SYS_openat2
    SYS_openat2,
#endif
    SYS_open_by_handle_at,
#ifdef SYS_mkdir
    SYS_mkdir,
#endif
    SYS_mkdirat,
#ifdef SYS_mknod
    SYS_mknod,
#endif
    SYS_mknodat,
#ifdef SYS_unlink
    SYS_unlink,
#endif
    SYS_unlinkat,
#ifdef SYS_rmdir
    SYS_rmdir,
#endif
#ifdef SYS_rename
    SYS_rename,
#endif
#ifdef SYS_renameat
    SYS_renameat,
#endif
    SYS_renameat2,
#ifdef SYS_link
    SYS_link,
#endif
    SYS_linkat,
#ifdef SYS_symlink
    SYS_symlink,
#endif
    SYS_symlinkat,
    SYS_truncate,
    SYS_ftruncate,
#ifdef SYS_chmod
    SYS_chmod,
#endif
    SYS_fchmod,
    SYS_fchmodat,
#ifdef SYS_fchmodat2
    SYS_fchmodat2,
#endif
#ifdef SYS_chown
    SYS_chown,
#endif
#ifdef SYS_lchown
    SYS_lchown,
#endif
    SYS_fchown,
    SYS_fchownat,
#ifdef SYS_utime
    SYS_utime,
#endif
#ifdef SYS_utimes
    SYS_utimes,
#endif
#ifdef SYS_futimesat
    SYS_futimesat,
#endif
    SYS_utimensat,
    SYS_setxattr,
    SYS_lsetxattr,
    SYS_fsetxattr,
    SYS_removexattr,
    SYS_lremovexattr,
    SYS_fremovexattr,
    SYS_mq_open,
    SYS_socket,
    SYS_connect,
    SYS_execve,
    SYS_execveat,
#ifdef SYS_fork
    SYS_fork,
#endif
#ifdef SYS_vfork
    SYS_vfork,
#endif
    SYS_io_uring_setup,
    SYS_io_uring_enter,
    SYS_io_uring_register,
    SYS_ptrace,
    SYS_process_vm_readv,
    SYS_process_vm_writev,
    SYS_tkill,
};

int sy_sandbox_restrict(void) {
    static sy_filter filter;
    filter.length = 0;
    filter.overflow = 0;
    const __u32 write_flags = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
    const __u32 self = (__u32)getpid();

    /* Another architecture's calling convention (e.g. 32-bit calls on x86-64) is refused. */
    emit(&filter, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    emit(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SY_AUDIT_ARCH, 1, 0));
    emit(&filter, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(&filter, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
#if defined(__x86_64__)
    /* The x32 calls share the architecture value; their numbers carry this bit. */
    emit(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000U, 0, 1));
    emit(&filter, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SY_RET_ERRNO(EPERM)));
#endif
    for (size_t i = 0; i < sizeof(denied_calls) / sizeof(denied_calls[0]); i++) {
        deny(&filter, denied_calls[i], EPERM);
    }
    /* clone3 passes its flags in memory the filter cannot read: ENOSYS makes the C library use clone. */
    deny(&filter, SYS_clone3, ENOSYS);
#ifdef SYS_open
    decide_on_argument(&filter, SYS_open, 1, BPF_JSET, write_flags, 1);
#endif
    decide_on_argument(&filter, SYS_openat, 2, BPF_JSET, write_flags, 1);
    /* Threads only: a clone without CLONE_THREAD would be a new process. */
    decide_on_argument(&filter, SYS_clone, 0, BPF_JSET, CLONE_THREAD, 0);
    /* Signals only to this process (raise, abort, pthread_kill). */
    decide_on_argument(&filter, SYS_kill, 0, BPF_JEQ, self, 0);
    decide_on_argument(&filter, SYS_tgkill, 0, BPF_JEQ, self, 0);
    emit(&filter, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    if (filter.overflow) {
        errno = E2BIG;
        return -1;
    }

    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    struct sock_fprog program = {.len = filter.length, .filter = filter.code};
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program) != 0) {
        if (errno != ENOSYS && errno != EINVAL) return -1;
        /* Kernels without the seccomp syscall take the filter through prctl. */
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0) != 0) return -1;
    }
    return 0;
}

#else

int sy_sandbox_restrict(void) {
    errno = ENOSYS;
    return -1;
}

#endif /* SY_AUDIT_ARCH */

#else

void sy_sandbox_prepare(unsigned int cpu_seconds) { (void)cpu_seconds; }

int sy_sandbox_restrict(void) {
    errno = ENOSYS;
    return -1;
}

#endif /* __linux__ */

int sy_process_keep_private(void) {
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

void sy_name_current_thread(const char *name) {
    prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

int sy_wake_fd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}
