#ifdef __linux__
#define _GNU_SOURCE
#endif
#include "relctl_system.h"
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif
#include <errno.h>

int relctl_mkstemp_cloexec(char *template) {
#ifdef __linux__
    return mkostemp(template, O_CLOEXEC);
#else
    int fd = mkstemp(template);
    if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
#endif
}

int relctl_pipe_cloexec(int fds[2]) {
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int relctl_become_subreaper(void) {
#ifdef __linux__
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    return -1;
#endif
}

int relctl_pidfd_open(int pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}
