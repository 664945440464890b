// The few C calls Swift cannot make itself (variadic ones, GNU extensions).
#ifndef RELCTL_SYSTEM_H
#define RELCTL_SYSTEM_H

// Makes this process the subreaper of its descendants (Linux; 0 on success,
// -1 where there is no such thing).
int relctl_become_subreaper(void);

// A pipe whose ends are close-on-exec from the start (pipe2 where there is
// one, which Swift cannot see without _GNU_SOURCE); 0 on success.
int relctl_pipe_cloexec(int fds[2]);

// mkstemp's file, close-on-exec from the start (mkostemp where there is one):
// a program started meanwhile on another thread does not get it.
int relctl_mkstemp_cloexec(char *template);

// A descriptor that polls readable once process `pid` (a child) has ended
// (Linux 5.3 and later; -1 elsewhere). Close-on-exec.
int relctl_pidfd_open(int pid);

#endif
