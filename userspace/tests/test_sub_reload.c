// SPDX-License-Identifier: GPL-2.0
/*
 * The module going and coming back, against a fake kernel: DELFAMILY is
 * family(0); NEWFAMILY (under another id and group) makes the
 * subscription join again, SUBSCRIBE and GET there, then family(1), and
 * lost(0, reload) comes before the new state.  A NEWFAMILY whose
 * DELFAMILY was missed is a reload too.  A module older than protocol 5
 * is not joined: lost(0, version) and -EPROTO once, saying what to
 * install; a newer one (6) is.  A subscription started without the
 * module (KSTAT_SUB_WAIT) begins at its NEWFAMILY, with no reload.
 */
#include <errno.h>
#include <stdlib.h>

#include "unit.h"
#include "fake_kernel.h"

static struct req r[32];

/* Answer what @sub asked of family @id: CONFIG_GET, then the GET. */
static int answer(struct fake *k, struct kstat_sub *sub, uint16_t id,
		  uint64_t ts)
{
	const struct req *q;
	int n = fake_requests(k, r, 32), ret;

	q = req_find(r, n, id, KSTAT_CMD_CONFIG_GET);
	if (q) {
		fake_config_answer(k, id, q->seq, KSTAT_SECTION_IRQ, 0);
		ret = drain(sub);
		if (ret < 0)
			return ret;
		n = fake_requests(k, r, 32);
	}
	q = req_find(r, n, id, KSTAT_CMD_GET);
	if (!q)
		return -ENOMSG;
	fake_get_answer(k, id, q->seq, ts, 0);
	return drain(sub);
}

static void sample_on(struct fake *k, uint16_t id, int grp, uint64_t seq,
		      uint64_t ts)
{
	struct msg m;

	sample_msg(&m, seq, ts, seq);
	m.nlh.nlmsg_type = id;
	fake_multicast(k, &m, grp);
}

static void ctrl(struct fake *k, uint8_t cmd, uint16_t id, uint32_t version,
		 int grp)
{
	struct msg m;

	ctrl_msg(&m, cmd, id, version, grp);
	fake_send(k, &m, 0);
}

static void test_reload(void)
{
	struct fake k;
	struct seen w;
	struct kstat_sub *sub = fake_sub(&k, &w, NULL, 1);
	int ret, n;

	(void)n;
	ret = sub ? answer(&k, sub, FAMILY, 100) : -1;
	sample_on(&k, FAMILY, GROUP, 50, 200);
	ret = ret < 0 ? ret : drain(sub);
	CHECK(ret == 1 && !strcmp(w.log, "G100 S50 "), "joined: \"%s\"", w.log);
	w.log[0] = '\0';

	/* nlctrl's news of the load we found already: no news */
	ctrl(&k, CTRL_CMD_NEWFAMILY, FAMILY, 5, GROUP);
	ret = drain(sub);
	CHECK(ret == 0 && !w.log[0] && fake_requests(&k, r, 32) == 0,
	      "NEWFAMILY of the family joined: nothing (\"%s\")", w.log);
	ctrl(&k, CTRL_CMD_DELFAMILY, FAMILY, 5, GROUP);
	ret = drain(sub);
	CHECK(ret == 0 && !strcmp(w.log, "F0 "), "DELFAMILY: family(0): \"%s\"", w.log);
	ctrl(&k, CTRL_CMD_NEWFAMILY, FAMILY + 1, 5, GROUP + 1);
	ret = drain(sub);
	CHECK(ret == 0 && !strcmp(w.log, "F0 F1 "),
	      "NEWFAMILY under another id and group: family(1): \"%s\"", w.log);
	w.log[0] = '\0';
	sample_on(&k, FAMILY, GROUP, 51, 300);	/* the old family's: not taken */
	ret = answer(&k, sub, FAMILY + 1, 5000);
	sample_on(&k, FAMILY + 1, GROUP + 1, 0, 6000);
	ret = ret < 0 ? ret : drain(sub);
	CHECK(ret == 1 && !strcmp(w.log, "L0reload G5000 S0 "),
	      "SUBSCRIBE and CONFIG_GET, GET there; lost(0, reload), the new state, its group's samples from seq 0: \"%s\"",
	      w.log);
	w.log[0] = '\0';

	/* a reload whose DELFAMILY was missed */
	ctrl(&k, CTRL_CMD_NEWFAMILY, FAMILY, 5, GROUP);
	drain(sub);
	ret = answer(&k, sub, FAMILY, 7000);
	CHECK(ret == 1 && !strcmp(w.log, "F0 F1 L0reload G7000 "),
	      "NEWFAMILY without DELFAMILY: a reload: \"%s\"", w.log);
	w.log[0] = '\0';

	/* an older module: refused once; a newer one: joined */
	ctrl(&k, CTRL_CMD_DELFAMILY, FAMILY, 5, GROUP);
	ctrl(&k, CTRL_CMD_NEWFAMILY, FAMILY, 4, GROUP);
	ret = drain(sub);
	CHECK(ret == -EPROTO && !strcmp(w.log, "F0 L0version ") &&
	      strstr(kstat_sub_last_error(sub), "version 4") &&
	      strstr(kstat_sub_last_error(sub), "install"),
	      "a protocol 4 module: lost(0, version), -EPROTO, \"%s\"",
	      kstat_sub_last_error(sub));
	ctrl(&k, CTRL_CMD_NEWFAMILY, FAMILY, 4, GROUP);
	ret = drain(sub);
	n = fake_requests(&k, r, 32);
	CHECK(ret == 0 && n == 0 && !strcmp(w.log, "F0 L0version "),
	      "said once, nothing asked of it (%d, %d requests)", ret, n);
	w.log[0] = '\0';
	ctrl(&k, CTRL_CMD_DELFAMILY, FAMILY, 4, GROUP);
	ctrl(&k, CTRL_CMD_NEWFAMILY, FAMILY, 6, GROUP);
	drain(sub);
	ret = answer(&k, sub, FAMILY, 9000);
	CHECK(ret == 1 && !strcmp(w.log, "F1 L0reload G9000 "),
	      "a protocol 6 module: joined: \"%s\"", w.log);
	kstat_unsubscribe(sub);
	close(k.fd);
}

/* Started without the module: its NEWFAMILY starts it, no reload. */
static void test_wait(void)
{
	struct kstat_sub_opts o = KSTAT_SUB_OPTS_INIT;
	struct fake k;
	struct seen w;
	struct kstat_sub *sub;
	int ret;

	o.flags = KSTAT_SUB_WAIT;
	sub = fake_sub(&k, &w, &o, 0);
	ret = sub ? drain(sub) : -1;
	CHECK(ret == 0 && fake_requests(&k, r, 32) == 0 && !w.log[0],
	      "no module: nothing asked, nothing said");
	ctrl(&k, CTRL_CMD_NEWFAMILY, FAMILY, 5, GROUP);
	drain(sub);
	ret = answer(&k, sub, FAMILY, 300);
	CHECK(ret == 1 && !strcmp(w.log, "F1 G300 "),
	      "it comes: family(1), its state, no reload: \"%s\"", w.log);
	kstat_unsubscribe(sub);
	close(k.fd);
}

int main(void)
{
	test_reload();
	test_wait();
	return unit_exit();
}
