/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plumbing shared by the nlraw subcommands: the kstat family's socket,
 * controller lookups, reading the answer to one request, and the default
 * stream's config and limits (read, and put back after a test changed
 * them).
 */
#ifndef NLRAW_NL_H
#define NLRAW_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

extern struct mnl_socket *nl;	/* requests go out on this socket */
extern uint16_t family;		/* the kstat family's id */
extern uint32_t family_version;	/* its CTRL_ATTR_VERSION */
extern char buf[1 << 20];	/* receive buffer (and nlraw's send buffer) */

/* Open @nl and look the family up; 0 or -1. */
int open_family(void);
/* Open another generic netlink socket with extended ACKs; NULL on error. */
struct mnl_socket *nl_open(void);
/* The "summary" group's id, or 0. */
uint32_t summary_group(void);

/*
 * Start a kstat request in @mem: netlink header (type = the family,
 * NLM_F_REQUEST | @flags) and generic netlink header (@cmd, our version).
 */
struct nlmsghdr *kstat_msg_put(void *mem, uint8_t cmd, uint16_t flags);

/* How a request was answered. */
enum answer_kind {
	ANS_NONE,	/* nothing within the time limit */
	ANS_ERROR,	/* NLMSG_ERROR: an ACK (err 0) or an error */
	ANS_DONE,	/* NLMSG_DONE ending a dump */
};

struct answer {
	enum answer_kind kind;
	int err;		/* positive errno, 0 for an ACK or a good DONE */
	char msg[256];		/* NLMSGERR_ATTR_MSG, "" if none */
	int offs;		/* NLMSGERR_ATTR_OFFS, or -1 */
	int miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, or -1 */
	unsigned int replies;	/* messages with our seq before the answer */
	unsigned long reply_bytes; /* their nlmsg_len, summed */
	unsigned int others;	/* messages with another seq meanwhile */
	unsigned int overruns;	/* ENOBUFS from recv meanwhile */
};

/*
 * Read @sock until the NLMSG_ERROR or NLMSG_DONE with @seq, at most
 * @timeout_ms in all.  Returns 0 (see ans->kind), or -errno for a receive
 * error other than ENOBUFS (counted in ans->overruns).  wait_reply() also
 * hands each reply message (our seq, not ERROR or DONE) to @cb.
 */
int wait_answer(struct mnl_socket *sock, uint32_t seq, struct answer *ans,
		int timeout_ms);
int wait_reply(struct mnl_socket *sock, uint32_t seq, struct answer *ans,
	       int timeout_ms, mnl_cb_t cb, void *data);

/* The default stream's config and the limits, as CONFIG_GET tells them. */
struct kconfig {
	bool valid;
	uint32_t interval_ms, batch, sections;
	uint8_t percpu, netns;
	uint32_t min_interval_ms, max_subscriptions;
};

/* CONFIG_GET on @sock; 0, or the errno of the refusal (in @ans). */
int config_read(struct mnl_socket *sock, struct kconfig *cfg,
		struct answer *ans);
/* CONFIG_SET of every field of @cfg (CAP_NET_ADMIN); 0 or the errno. */
int config_write(struct mnl_socket *sock, const struct kconfig *cfg,
		 struct answer *ans);

/* nr_cpu_ids: one past the last possible CPU id. */
unsigned int possible_cpus(void);

#endif
