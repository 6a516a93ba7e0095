// SPDX-License-Identifier: GPL-2.0
/*
 * mcled: multicolor LEDs through the LED class files in sysfs
 * (Documentation/ABI/testing/sysfs-class-led-multicolor).  multi_index
 * names a LED's colors, multi_intensity holds one value per color in that
 * order, brightness scales them all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kit.h"
#include "led/led.h"
#include "led/ledset.h"
#include "led/ledstage.h"

static const char usage[] =
"Usage: mcled [-l NAME] [-j] [list]      multicolor LEDs and their state\n"
"       mcled [-l NAME] [-j] get         state, and what each color gets\n"
"       mcled [-l NAME] [-b N|N%] [set VALUE...] [ACTION]\n"
"       mcled [-l NAME] [-j] trigger     the triggers, [the current one]\n"
"\n"
"  -l NAME   the LED: its name in /sys/class/leds, or a shell glob that\n"
"            selects several ('rgb:kbd_backlight*'); default: the only\n"
"            multicolor LED there is\n"
"  -j        JSON output\n"
"  -b N|N%   set brightness: 0 to max_brightness, or a percentage of it\n"
"\n"
"set VALUE... writes multi_intensity, all colors in one write, as:\n"
"  V1 ... Vn        every color, in multi_index order\n"
"  COLOR=V ...      the colors named; the others keep their intensity\n"
"  #RRGGBB [COLOR=V ...]\n"
"                   red, green and blue scaled to max_brightness, every\n"
"                   other color 0 unless named; the # is required\n"
"Values: 0 to max_brightness (from 7.2: each channel's multi_max_intensity),\n"
"read as sysfs reads them: decimal, 0x hex or leading-0 octal (010000 is\n"
"4096; ff8000 is no value, #ff8000 a color).\n"
"Colors: " COLOR_NAMES ".\n"
"\n"
"ACTION sets a trigger, after the color; it drives the brightness:\n"
"  blink ON_MS OFF_MS          the timer trigger\n"
"  pattern 'B MS B MS ...'     the pattern trigger: brightness (a value or\n"
"            [-r N]            N%) and ms pairs, fading in 50 ms steps;\n"
"                              -r N times, -1 (default) for ever\n"
"  heartbeat                   the heartbeat trigger\n"
"  steady                      no trigger, lit at -b or max_brightness\n"
"A blink or heartbeat is at -b, the LED's brightness, or max_brightness.\n"
"\n"
"mcled [-l NAME] stage STAGE [FILE]\n"
"  the boot-status LED shows STAGE: started, waiting, mounted or failed,\n"
"  as FILE (default " LEDSTAGE_CONF ") says; kit.led=NAME on the\n"
"  kernel command line chooses the LED, kit.led=off leaves it alone.\n"
"  Without a multicolor LED, and none chosen, it does nothing.\n"
"mcled stage config [FILE]\n"
"  checks FILE and prints it whole, defaults and trigger modules added\n"
"\n"
"get shows brightness * intensity / max_brightness for each color, as\n"
"the kernel rounds it: to closest from Linux 6.6 (and 6.5.3, 6.4.16,\n"
"6.1.53, 5.15.132), truncated before.\n"
"Environment: KIT_SYSFS  sysfs root (default /sys)\n"
"             KIT_OSRELEASE  kernel version X.Y.Z for get (default uname)\n";

KIT_APPLET(mcled, "multicolor LEDs: list, get, set color and brightness",
	   usage);

#define CHOICES_SHOWN	4	/* names in the "choose one" message */
#define NOT_A_PATH	"give a LED name or glob, not a path"

/* -l names a file of /sys/class/leds, or several. */
static void check_l(const char *pattern)
{
	if (pattern && strchr(pattern, '/'))
		die_usage("-l %s: " NOT_A_PATH, pattern);
}



/*
 * The multicolor LEDs that pattern (NULL: all) names, sorted by name.  An
 * exact name must be a multicolor LED; a glob keeps the multicolor ones.
 */
static struct led *select_leds(const char *pattern, int *count)
{
	bool exact = pattern && !strpbrk(pattern, "*?[");
	int i, n = 0, nnames;
	char **names;
	char why[LED_WHY_SIZE];
	struct led *leds;

	check_l(pattern);
	names = matching_names(pattern ? pattern : "*", &nnames);
	if (nnames < 0)
		die("out of memory");
	if (!nnames && pattern)
		die("no LED %s '%s' in %s", exact ? "named" : "matches",
		    pattern, leds_dir());
	leds = calloc(nnames + 1, sizeof(*leds));
	if (!leds)
		die("out of memory");
	for (i = 0; i < nnames; i++) {
		if (!is_multicolor(names[i])) {
			if (exact)
				die("%s is not a multicolor LED (no multi_index)",
				    pattern);
			continue;
		}
		leds[n].name = names[i];
		if (read_led(&leds[n++], why))
			die("%s", why);
	}
	if (!n && pattern)
		die("no multicolor LED matches '%s' in %s", pattern,
		    leds_dir());
	*count = n;
	return leds;
}

/* get and set want one LED, or a -l that chose several on purpose. */
static void need_choice(const struct led *leds, int n, const char *pattern)
{
	char names[CHOICES_SHOWN * (NAME_MAX + 2) + 8] = "";
	int i;

	if (pattern || n == 1)
		return;
	if (!n)
		die("no multicolor LED in %s", leds_dir());
	for (i = 0; i < n && i < CHOICES_SHOWN; i++) {
		strcat(names, i ? ", " : "");
		strcat(names, leds[i].name);
	}
	die_usage("%d multicolor LEDs; choose one with -l NAME (%s%s)", n,
		  names, n > CHOICES_SHOWN ? ", ..." : "");
}

static void print_numbers(const long *value, int n)
{
	int i;

	putchar('[');
	for (i = 0; i < n; i++)
		printf(i ? ",%ld" : "%ld", value[i]);
	putchar(']');
}

static void driven_values(const struct led *led, bool closest, long *value)
{
	int i;

	for (i = 0; i < led->ncolors; i++)
		value[i] = driven_value(led->brightness, led->intensity[i],
					led->max_brightness, closest);
}

/* get's last line: "  trigger timer: delay_on 500 delay_off 500" */
static void print_trig(const struct trig *t)
{
	int i;

	if (!*t->name)
		return;
	printf("  trigger %s", t->name);
	for (i = 0; i < TRIG_ATTRS && t->attr[i]; i++)
		printf("%s %s %s", i ? "" : ":", t->attr[i], t->text[i]);
	putchar('\n');
}

/* -j get: ,"trigger":"timer","delay_on":500,... (the pattern a string,
 * and a setting that is not a number, whatever a driver wrote) */
static void print_json_trig(const struct trig *t)
{
	int i;

	if (!*t->name)
		return;
	fputs(",\"trigger\":", stdout);
	json_string(stdout, t->name);
	for (i = 0; i < TRIG_ATTRS && t->attr[i]; i++) {
		printf(",\"%s\":", t->attr[i]);
		if (!strcmp(t->attr[i], "pattern"))
			json_string(stdout, t->text[i]);
		else
			json_value(stdout, t->text[i]);
	}
}

/* list, or get (with the kernel's rounding, closest or not). */
static void print_json(const struct led *leds, int n, bool get,
		       bool closest)
{
	long value[MAX_COLORS];
	int i, c;

	putchar('[');
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", stdout);
		json_string(stdout, leds[i].name);
		fputs(",\"colors\":[", stdout);
		for (c = 0; c < leds[i].ncolors; c++) {
			if (c)
				putchar(',');
			json_string(stdout, leds[i].color[c]);
		}
		fputs("],\"intensity\":", stdout);
		print_numbers(leds[i].intensity, leds[i].ncolors);
		printf(",\"brightness\":%ld,\"max_brightness\":%ld",
		       leds[i].brightness, leds[i].max_brightness);
		if (leds[i].has_max_intensity) {
			fputs(",\"max_intensity\":", stdout);
			print_numbers(leds[i].max_intensity, leds[i].ncolors);
		}
		if (get) {
			driven_values(&leds[i], closest, value);
			printf(",\"rounding\":\"%s\",\"values\":",
			       closest ? "closest" : "truncate");
			print_numbers(value, leds[i].ncolors);
			print_json_trig(leds[i].trig);
		}
		putchar('}');
	}
	puts(n ? "\n]" : "]");
}

static void print_list(const struct led *led)
{
	int i;

	printf("%s:", led->name);
	for (i = 0; i < led->ncolors; i++)
		printf(" %s=%ld", led->color[i], led->intensity[i]);
	printf(" brightness=%ld max_brightness=%ld", led->brightness,
	       led->max_brightness);
	for (i = 0; i < led->ncolors && led->has_max_intensity; i++)
		printf(i ? ",%ld" : " max_intensity=%ld",
		       led->max_intensity[i]);
	putchar('\n');
}

static void print_get(const struct led *led, bool closest)
{
	long value[MAX_COLORS];
	int i;

	driven_values(led, closest, value);
	printf("%s: brightness %ld of %ld, values %s\n", led->name,
	       led->brightness, led->max_brightness,
	       closest ? "rounded to closest" : "truncated");
	/* A max column where the kernel has per-channel maxima. */
	printf("  %-10s %9s", "color", "intensity");
	if (led->has_max_intensity)
		printf(" %6s", "max");
	printf(" %6s\n", "value");
	for (i = 0; i < led->ncolors; i++) {
		printf("  %-10s %9ld", led->color[i], led->intensity[i]);
		if (led->has_max_intensity)
			printf(" %6ld", led->max_intensity[i]);
		printf(" %6ld\n", value[i]);
	}
}

static int show(const char *pattern, bool json, bool get)
{
	bool closest = get && running_kernel_rounds();
	char why[LED_WHY_SIZE];
	int i, n;
	struct led *leds = select_leds(pattern, &n);

	if (get)
		need_choice(leds, n, pattern);
	for (i = 0; i < n && get; i++) {
		leds[i].trig = calloc(1, sizeof(struct trig));
		if (!leds[i].trig)
			die("out of memory");
		if (read_trig(&leds[i], leds[i].trig, NULL, why) < 0)
			die("%s", why);
	}
	if (json)
		print_json(leds, n, get, closest);
	for (i = 0; i < n && !json; i++) {
		if (get) {
			print_get(&leds[i], closest);
			print_trig(leds[i].trig);
		} else {
			print_list(&leds[i]);
		}
	}
	return 0;
}

/* trigger: each LED's triggers as the kernel lists them, the current
 * one in brackets; -j: "triggers" and "current". */
static int show_triggers(const char *pattern, bool json)
{
	char line[LEDTEXT_PATTERN_SIZE], *names[256], why[LED_WHY_SIZE];
	int i, j, n, count, current;
	struct led *leds = select_leds(pattern, &n);

	for (i = 0; i < n; i++) {
		if (read_attr(&leds[i], "trigger", line, sizeof(line), why))
			die("%s", why);
		if (!json) {
			printf("%s: %s\n", leds[i].name, line);
			continue;
		}
		count = ledtext_triggers(line, names, 256, &current);
		fputs(i ? ",\n{\"name\":" : "[\n{\"name\":", stdout);
		json_string(stdout, leds[i].name);
		fputs(",\"triggers\":[", stdout);
		for (j = 0; j < count; j++) {
			fputs(j ? "," : "", stdout);
			json_string(stdout, names[j]);
		}
		fputs("],\"current\":", stdout);
		json_string(stdout, current < 0 ? "none" : names[current]);
		putchar('}');
	}
	if (json)
		puts(n ? "\n]" : "[]");
	return 0;
}

/*
 * Where the request being read comes from: "" for the command line, or
 * "FILE:LINE: STAGE=LOOK" for a look of the boot-status LED's file.  A
 * wrong look is the file's fault: its place and exit 1, where a wrong
 * argument exits 2.
 */
static char look_origin[PATH_MAX + 2 * LEDSTAGE_LINE];

static void __attribute__((format(printf, 1, 2), noreturn))
bad_request(const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int len;

	va_start(ap, fmt);
	len = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (len < 0)
		die("out of memory");
	if (*look_origin)
		die("stage: %s: %s", look_origin, msg);
	die_usage("%s", msg);
}

/* A bare RRGGBB would mean a color or a number by the LED's channels. */
static void die_bad_value(const char *arg)
{
	unsigned char rgb[3];

	if (!parse_rgb(arg, rgb))
		bad_request("bad value '%s': for a color write '#%s'; values "
			    "are decimal, 0x hex or 0 octal", arg, arg);
	bad_request("bad value '%s': give 0 to max_brightness, in decimal, "
		    "0x hex or 0 octal", arg);
}

static void parse_named(struct request *req, const char *arg,
			const char *eq)
{
	struct color_value *cv = &req->values[req->nvalues];
	int i;

	cv->color = strndup(arg, eq - arg);
	if (!cv->color)
		die("out of memory");
	if (!known_color(cv->color))
		bad_request("unknown color '%s'; colors: %s", cv->color,
			    COLOR_NAMES);
	for (i = 0; i < req->nvalues; i++)
		if (req->values[i].color &&
		    !strcmp(req->values[i].color, cv->color))
			bad_request("%s given twice", cv->color);
	if (parse_value(eq + 1, &cv->value))
		die_bad_value(arg);
	req->nvalues++;
}

static void parse_set_arg(struct request *req, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (eq) {
		parse_named(req, arg, eq);
	} else if (*arg == '#') {
		if (req->rgb_arg)
			bad_request("one #RRGGBB at a time: %s and %s",
				    req->rgb_arg, arg);
		if (parse_rgb(arg + 1, req->rgb))
			bad_request("bad color '%s': give #RRGGBB, six hex "
				    "digits", arg);
		req->rgb_arg = arg;
	} else {
		if (parse_value(arg, &req->values[req->nvalues].value))
			die_bad_value(arg);
		req->nvalues++;
		req->npositional++;
	}
}

static enum action action_of(const char *word)
{
	int a;

	for (a = ACT_STEADY; a <= ACT_HEARTBEAT; a++)
		if (!strcmp(word, actions[a].word))
			return a;
	return ACT_NONE;
}

/* blink ON OFF, pattern SPEC, heartbeat, steady: the words after set's. */
static void parse_action(struct request *req, const char *repeat_arg,
			 int argc, char **argv)
{
	unsigned long repeat;

	req->action = action_of(argv[0]);
	if (argc - 1 != actions[req->action].nargs)
		bad_request("%s takes %s", argv[0],
			    req->action == ACT_BLINK ? "ON_MS OFF_MS" :
			    req->action == ACT_PATTERN ?
			    "one argument, 'B MS B MS ...'" : "no arguments");
	if (req->action == ACT_BLINK &&
	    (parse_ulong(argv[1], 10, 1, UINT_MAX, &req->delay_on) ||
	     parse_ulong(argv[2], 10, 1, UINT_MAX, &req->delay_off)))
		bad_request("blink takes ON_MS OFF_MS, each 1 or more "
			    "milliseconds: %s %s", argv[1], argv[2]);
	if (req->action == ACT_PATTERN)
		req->pattern = argv[1];
	req->repeat = -1;
	if (repeat_arg && strcmp(repeat_arg, "-1") &&
	    parse_ulong(repeat_arg, 10, 1, INT_MAX, &repeat))
		bad_request("bad repeat '%s': give 1 or more times, or -1 "
			    "for ever", repeat_arg);
	if (repeat_arg && strcmp(repeat_arg, "-1"))
		req->repeat = repeat;
	if (req->has_brightness && req->action == ACT_PATTERN)
		bad_request("-b does not go with pattern: its brightness is "
			    "the pattern's");
	if (req->has_brightness && !req->brightness &&
	    req->action != ACT_STEADY)
		bad_request("-b 0 turns the LED off and ends any trigger; "
			    "give %s a brightness above 0", argv[0]);
}

static void parse_request(struct request *req, const char *bright_arg,
			  const char *repeat_arg, int argc, char **argv)
{
	int i, end;

	if (argc && !strcmp(argv[0], "set"))
		argc--, argv++;
	for (end = 0; end < argc && !action_of(argv[end]); end++)
		;
	req->values = calloc(argc + 1, sizeof(*req->values));
	if (!req->values)
		die("out of memory");
	if (bright_arg) {
		if (ledtext_level(bright_arg, &req->brightness,
				  &req->percent))
			bad_request("bad brightness '%s': give 0 to "
				    "max_brightness, or 0%% to 100%%",
				    bright_arg);
		req->has_brightness = true;
	} else if (!argc) {
		bad_request("set needs values: V1 ... Vn, COLOR=V ... or "
			    "#RRGGBB");
	}
	for (i = 0; i < end; i++)
		parse_set_arg(req, argv[i]);
	if (repeat_arg && (end == argc || action_of(argv[end]) != ACT_PATTERN))
		bad_request("-r goes with pattern");
	if (end < argc)
		parse_action(req, repeat_arg, argc - end, argv + end);
	if (req->npositional &&
	    (req->npositional < req->nvalues || req->rgb_arg))
		bad_request("give all values in order, or COLOR=V and #RRGGBB, "
			    "not both");
}

/* Every LED is planned and checked before the first write (led_set()). */
static int set(const char *pattern, const char *bright_arg,
	       const char *repeat_arg, int argc, char **argv)
{
	struct request req = { 0 };
	struct kit_err e;
	struct led *leds;
	int n;

	parse_request(&req, bright_arg, repeat_arg, argc, argv);
	leds = select_leds(pattern, &n);
	need_choice(leds, n, pattern);
	if (led_set(leds, n, &req, &e))
		die_err(&e);
	return 0;
}

/* The stage's look as set's arguments, checked as set checks them; a
 * wrong one is named with its place in the file at path. */
static int stage_args(const struct ledstage_conf *conf, int stage,
		      const char *path, char *copy, char **argv,
		      struct request *req)
{
	char text[LEDTEXT_PATTERN_SIZE], why[256];
	int n;

	snprintf(look_origin, sizeof(look_origin), "%s:%d: %s=%s", path,
		 conf->look_line[stage], ledstage_name(stage),
		 conf->look[stage]);
	strcpy(copy, conf->look[stage]);
	n = ledstage_look_args(copy, argv, LEDSTAGE_LINE / 2);
	if (n < 0)
		bad_request("give a look as COLOR ACTION [ARGUMENTS], e.g. "
			    "'#00ff00 steady'");
	memset(req, 0, sizeof(*req));
	parse_request(req, NULL, NULL, n, argv);
	if (!req->action)
		bad_request("no action: steady, blink, pattern or heartbeat");
	/* The pattern's form; its levels against the LED's maximum at
	 * boot. */
	if (req->action == ACT_PATTERN &&
	    ledtext_pattern(req->pattern, LEDTEXT_MAX_LEVEL, text, sizeof(text),
			    why, sizeof(why)))
		bad_request("%s", why);
	*look_origin = '\0';
	return n;
}

/* The file at path over *conf, its keys and led= checked, each error
 * with its line; a missing file leaves *conf. */
static void read_stage_file(struct ledstage_conf *conf, const char *path)
{
	char text[LEDSTAGE_COUNT * LEDSTAGE_LINE * 4], why[LEDSTAGE_LINE + 128];
	struct kit_err e;
	struct stat st;
	ssize_t len;
	int fd, line;

	fd = open_noblock(path);
	if (fd < 0 && errno == ENOENT)
		return;
	if (fd < 0)
		die_errno("stage: cannot read %s", path);
	if (regular_file(fd, path, "give the LED's configuration, a text "
			 "file", &st, &e))
		die("stage: %s", e.msg);
	/* By its size: a read cut at the buffer's end, then its newline
	 * stripped, looked whole. */
	if ((unsigned long long)st.st_size >= sizeof(text))
		die("stage: %s is longer than %zu bytes; is it the LED's "
		    "configuration?", path, sizeof(text) - 1);
	len = read_fd_text(fd, text, sizeof(text));
	if (len < 0)
		die_errno("stage: cannot read %s", path);
	close(fd);
	if (ledstage_parse(conf, text, len, &line, why, sizeof(why)))
		die("stage: %s:%d: %s", path, line, why);
	if (strchr(conf->led, '/'))
		die("stage: %s:%d: led=%s: " NOT_A_PATH, path, conf->led_line,
		    conf->led);
}

/*
 * The file at path over the defaults, every value checked, each look's
 * action in action[].  config and each stage read it here, alike.
 */
static void read_stage_conf(struct ledstage_conf *conf, const char *path,
			    enum action action[LEDSTAGE_COUNT])
{
	char copy[LEDSTAGE_LINE], *argv[LEDSTAGE_LINE / 2];
	struct request req;
	int i;

	ledstage_defaults(conf);
	read_stage_file(conf, path);
	for (i = 0; i < LEDSTAGE_COUNT; i++) {
		stage_args(conf, i, path, copy, argv, &req);
		action[i] = req.action;
	}
}

/* stage config: the file checked, each look's trigger module added. */
static int print_stage_conf(struct ledstage_conf *conf,
			    const enum action action[LEDSTAGE_COUNT])
{
	char module[TRIG_NAME + sizeof(TRIG_MODULE)];
	int i;

	for (i = 0; i < LEDSTAGE_COUNT; i++) {
		if (!strcmp(actions[action[i]].trigger, "none"))
			continue;
		snprintf(module, sizeof(module), TRIG_MODULE,
			 actions[action[i]].trigger);
		if (ledstage_add_module(conf, module))
			die("stage: modules= leaves no room for %s", module);
	}
	ledstage_print(conf, stdout);
	return 0;
}

/*
 * stage: the LED kit.led=, -l or the file names, else the only multicolor
 * LED; none at all is no error, so that a machine without one boots as
 * it did before kit.
 */
static int stage(const char *pattern, int argc, char **argv)
{
	char copy[LEDSTAGE_LINE], *args[LEDSTAGE_LINE / 2];
	char cmdline[4096] = "", chosen[LEDSTAGE_LINE];
	const char *path = argc == 3 ? argv[2] : LEDSTAGE_CONF;
	enum action action[LEDSTAGE_COUNT];
	struct ledstage_conf conf;
	int id, n, nleds;
	struct request req;

	if (argc < 2 || argc > 3)
		die_usage("stage takes STAGE [FILE] or config [FILE]");
	check_l(pattern);
	read_stage_conf(&conf, path, action);
	if (pattern)
		snprintf(conf.led, sizeof(conf.led), "%s", pattern);
	if (!strcmp(argv[1], "config"))
		return print_stage_conf(&conf, action);
	id = ledstage_find(argv[1]);
	if (id < 0)
		die_usage("stage: unknown stage '%s': started, waiting, "
			  "mounted, failed or config", argv[1]);
	n = stage_args(&conf, id, path, copy, args, &req);
	read_text("/proc/cmdline", cmdline, sizeof(cmdline));
	pattern = ledstage_led(&conf, cmdline, chosen, sizeof(chosen));
	if (!pattern)
		return 0;
	/* -l's and led='s were checked: it is kit.led='s. */
	if (strchr(pattern, '/'))
		die("stage: kit.led=%s on the kernel command line: "
		    NOT_A_PATH, pattern);
	if (!*pattern) {
		select_leds(NULL, &nleds);
		if (!nleds)
			return 0;
		if (nleds > 1)
			die("stage: %d multicolor LEDs; choose one: led= in %s, "
			    "or kit.led= on the kernel command line", nleds,
			    path);
		pattern = NULL;
	}
	/* Lit whatever it was: steady would keep an unlit LED dark. */
	return set(pattern, req.action == ACT_PATTERN ? NULL : "100%", NULL,
		   n, args);
}

int mcled_main(int argc, char **argv)
{
	const char *pattern = NULL, *bright_arg = NULL, *repeat_arg = NULL;
	const char *cmd;
	bool json = false;
	int opt;

	while ((opt = kit_getopt(argc, argv, "l:jb:r:", NULL)) != -1) {
		if (opt == 'l')
			pattern = optarg;
		else if (opt == 'j')
			json = true;
		else if (opt == 'b')
			bright_arg = optarg;
		else
			repeat_arg = optarg;
	}
	argc -= optind;
	argv += optind;
	cmd = argc ? argv[0] : bright_arg ? "set" : "list";
	if (!strcmp(cmd, "stage") && (json || bright_arg || repeat_arg))
		die_usage("stage takes -l only: its look comes from the file");
	if (!strcmp(cmd, "stage"))
		return stage(pattern, argc, argv);
	if (!strcmp(cmd, "set") || action_of(cmd)) {
		if (json)
			die_usage("-j goes with list, get and trigger");
		return set(pattern, bright_arg, repeat_arg, argc, argv);
	}
	if (strcmp(cmd, "list") && strcmp(cmd, "get") &&
	    strcmp(cmd, "trigger"))
		die_usage("unknown command '%s': list, get, set, trigger, "
			  "blink, pattern, heartbeat or steady", cmd);
	if (bright_arg)
		die_usage("-b goes with set and the triggers, or alone");
	if (repeat_arg)
		die_usage("-r goes with pattern");
	if (argc > 1)
		die_usage("%s takes no arguments", cmd);
	if (!strcmp(cmd, "trigger"))
		return show_triggers(pattern, json);
	return show(pattern, json, !strcmp(cmd, "get"));
}
