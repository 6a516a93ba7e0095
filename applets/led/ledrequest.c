// SPDX-License-Identifier: GPL-2.0
/*
 * ledrequest: mcled set's words read into a struct request (ledset.h),
 * each checked before any LED is: values by position, COLOR=V or
 * #RRGGBB, then an action and its arguments.  A wrong word is a usage
 * error (EXIT_USAGE) in *e.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "led/ledset.h"

/* A bare RRGGBB would mean a color or a number by the LED's channels. */
static int bad_value(const char *arg, struct kit_err *e)
{
	unsigned char rgb[3];

	if (!led_parse_rgb(arg, rgb))
		return kit_fail(e, EXIT_USAGE, 0, "bad value '%s': for a color "
				"write '#%s'; values are decimal, 0x hex or 0 "
				"octal", arg, arg);
	return kit_fail(e, EXIT_USAGE, 0, "bad value '%s': give 0 to "
			"max_brightness, in decimal, 0x hex or 0 octal", arg);
}

static int parse_named(struct request *req, const char *arg,
		       const char *eq, struct kit_err *e)
{
	struct color_value *cv = &req->values[req->nvalues];
	int i;

	cv->color = xstrndup(arg, eq - arg);
	if (!led_known_color(cv->color))
		return kit_fail(e, EXIT_USAGE, 0, "unknown color '%s'; colors: "
				"%s", cv->color, COLOR_NAMES);
	for (i = 0; i < req->nvalues; i++)
		if (req->values[i].color &&
		    !strcmp(req->values[i].color, cv->color))
			return kit_fail(e, EXIT_USAGE, 0, "%s given twice",
					cv->color);
	if (led_parse_value(eq + 1, &cv->value))
		return bad_value(arg, e);
	req->nvalues++;
	return 0;
}

static int parse_set_arg(struct request *req, const char *arg,
			 struct kit_err *e)
{
	const char *eq = strchr(arg, '=');

	if (eq)
		return parse_named(req, arg, eq, e);
	if (*arg == '#') {
		if (req->rgb_arg)
			return kit_fail(e, EXIT_USAGE, 0, "one #RRGGBB at a "
					"time: %s and %s", req->rgb_arg, arg);
		if (led_parse_rgb(arg + 1, req->rgb))
			return kit_fail(e, EXIT_USAGE, 0, "bad color '%s': give "
					"#RRGGBB, six hex digits", arg);
		req->rgb_arg = arg;
		return 0;
	}
	if (led_parse_value(arg, &req->values[req->nvalues].value))
		return bad_value(arg, e);
	req->nvalues++;
	req->npositional++;
	return 0;
}

enum action led_action_of(const char *word)
{
	int a;

	for (a = ACT_STEADY; a <= ACT_HEARTBEAT; a++)
		if (!strcmp(word, led_actions[a].word))
			return a;
	return ACT_NONE;
}

/* -r N: 1 or more times, or -1 (the default) for ever. */
static int parse_repeat(struct request *req, const char *repeat_arg,
			struct kit_err *e)
{
	unsigned long repeat;

	req->repeat = -1;
	if (!repeat_arg || !strcmp(repeat_arg, "-1"))
		return 0;
	if (parse_ulong(repeat_arg, 10, 1, INT_MAX, &repeat))
		return kit_fail(e, EXIT_USAGE, 0, "bad repeat '%s': give 1 or "
				"more times, or -1 for ever", repeat_arg);
	req->repeat = repeat;
	return 0;
}

/* blink ON OFF, pattern SPEC, heartbeat, steady: the words after set's. */
static int parse_action(struct request *req, const char *repeat_arg,
			int argc, char **argv, struct kit_err *e)
{
	req->action = led_action_of(argv[0]);
	if (argc - 1 != led_actions[req->action].nargs)
		return kit_fail(e, EXIT_USAGE, 0, "%s takes %s", argv[0],
				req->action == ACT_BLINK ? "ON_MS OFF_MS" :
				req->action == ACT_PATTERN ?
				"one argument, 'B MS B MS ...'" :
				"no arguments");
	if (req->action == ACT_BLINK &&
	    (parse_ulong(argv[1], 10, 1, UINT_MAX, &req->delay_on) ||
	     parse_ulong(argv[2], 10, 1, UINT_MAX, &req->delay_off)))
		return kit_fail(e, EXIT_USAGE, 0, "blink takes ON_MS OFF_MS, "
				"each 1 or more milliseconds: %s %s", argv[1],
				argv[2]);
	if (req->action == ACT_PATTERN)
		req->pattern = argv[1];
	if (parse_repeat(req, repeat_arg, e))
		return -1;
	if (req->has_brightness && req->action == ACT_PATTERN)
		return kit_fail(e, EXIT_USAGE, 0, "-b does not go with "
				"pattern: its brightness is the pattern's");
	if (req->has_brightness && !req->brightness &&
	    req->action != ACT_STEADY)
		return kit_fail(e, EXIT_USAGE, 0, "-b 0 turns the LED off and "
				"ends any trigger; give %s a brightness above "
				"0", argv[0]);
	return 0;
}

int led_parse_request(struct request *req, const char *bright_arg,
		      const char *repeat_arg, int argc, char **argv,
		      struct kit_err *e)
{
	int i, end;

	if (argc && !strcmp(argv[0], "set"))
		argc--, argv++;
	for (end = 0; end < argc && !led_action_of(argv[end]); end++)
		;
	req->values = xcalloc(argc + 1, sizeof(*req->values));
	if (bright_arg) {
		if (led_text_level(bright_arg, &req->brightness,
				  &req->percent))
			return kit_fail(e, EXIT_USAGE, 0, "bad brightness '%s': "
					"give 0 to max_brightness, or 0%% to "
					"100%%", bright_arg);
		req->has_brightness = true;
	} else if (!argc) {
		return kit_fail(e, EXIT_USAGE, 0, "set needs values: V1 ... Vn, "
				"COLOR=V ... or #RRGGBB");
	}
	for (i = 0; i < end; i++)
		if (parse_set_arg(req, argv[i], e))
			return -1;
	if (repeat_arg &&
	    (end == argc || led_action_of(argv[end]) != ACT_PATTERN))
		return kit_fail(e, EXIT_USAGE, 0, "-r goes with pattern");
	if (end < argc && parse_action(req, repeat_arg, argc - end,
				       argv + end, e))
		return -1;
	if (req->npositional &&
	    (req->npositional < req->nvalues || req->rgb_arg))
		return kit_fail(e, EXIT_USAGE, 0, "give all values in order, or "
				"COLOR=V and #RRGGBB, not both");
	return 0;
}
