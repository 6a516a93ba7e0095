/* SPDX-License-Identifier: GPL-2.0 */
/* tcpiter -i: TCP's internals of a full socket, as text or JSON. */
#ifndef SOCKINFO_H
#define SOCKINFO_H

#include <linux/types.h>
#include <stdbool.h>

#include "../../bpf/sockrec.h"

/* At most this long: every field at its widest. */
#define SOCK_INFO_MAX 2048

/* ss -ti's second line of r, a newline and a tab first, at p; its end. */
char *sock_format_info_line(char *p, const struct sock_rec *r,
			    const struct sock_info *in);
/* ,"tcp_info":{...} at p; its end. */
char *sock_format_info_json(char *p, const struct sock_info *in);
/* us as milliseconds in %g, as ss prints times, at p; its end. */
char *sock_put_ms(char *p, __u32 us);

#endif
