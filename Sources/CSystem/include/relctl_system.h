// The few C calls Swift cannot make itself (variadic ones).
#ifndef RELCTL_SYSTEM_H
#define RELCTL_SYSTEM_H

// Makes this process the subreaper of its descendants (Linux; 0 on success,
// -1 where there is no such thing).
int relctl_become_subreaper(void);

#endif
