// SPDX-License-Identifier: GPL-2.0
/*
 * vled: virtual multicolor LEDs.
 *
 * Registers LEDs through the kernel's multicolor LED class with no hardware
 * behind them, for tests, demos and LED userspace written before its board
 * exists.  The parameter led= lists them:
 *
 *   insmod vled.ko led=NAME/COLOR+COLOR+.../MAX[,NAME/COLOR+.../MAX]...
 *
 * COLOR is a color name as multi_index shows it, MAX the max_brightness.
 * COLOR:N gives that channel a maximum intensity of its own
 * (multi_max_intensity), on kernels whose mc_subled has max_intensity
 * (7.2, commit 2682d6308654).  What a real driver would send to its
 * hardware, the per-color values the class computes, is readable, in
 * multi_index order, from
 *
 *   /sys/devices/platform/vled/components/NAME   e.g. "green 21 blue 113 red 69"
 *
 * and the last VLED_LOG_SIZE times the class set the brightness (a
 * trigger's blinks and steps among them), oldest first, one line each:
 * microseconds of CLOCK_MONOTONIC, the brightness, each component:
 *
 *   /sys/devices/platform/vled/log/NAME          e.g. "5012345 128 22 113 69"
 *
 * busy=NAME[,NAME]... disables the sysfs of those LEDs, as a flash driver
 * does while V4L2 holds its LED: the class refuses writes to brightness
 * (EBUSY), for tests of what userspace does then.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/led-class-multicolor.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>
#include <uapi/linux/uleds.h>	/* LED_MAX_NAME_SIZE, as the class has it */

/* Keeps brightness * intensity in 32 bits for intensities up to the max. */
#define VLED_MAX_BRIGHTNESS	65535

#define VLED_LOG_SIZE		64

/* One brightness the class set. */
struct vled_log_entry {
	u64 ns;
	unsigned int brightness;
	unsigned int sent[LED_COLOR_ID_MAX];
};

struct vled {
	struct led_classdev_mc mc;
	struct mc_subled subled[LED_COLOR_ID_MAX];
	/* The hardware's registers: the components last sent, per channel. */
	unsigned int sent[LED_COLOR_ID_MAX];
	struct vled_log_entry *log;	/* a ring of VLED_LOG_SIZE */
	unsigned int logged;		/* entries ever written */
	spinlock_t lock;		/* guards sent[], log and subled[].brightness */
	struct device_attribute components, log_attr;
};

/*
 * __counted_by came with dd06e72e68bc ("Compiler Attributes: Add
 * __counted_by macro"); 6.1's stable updates took it later (Debian's
 * 6.1.0-57 has it, 6.1.0-50 not).
 */
#ifndef __counted_by
#define __counted_by(member)
#endif

/* The platform device's state (its drvdata): the LEDs of led=. */
struct vled_priv {
	struct attribute_group components, log;
	unsigned int num_leds;
	struct vled leds[] __counted_by(num_leds);
};

/* The default is the example of Documentation/leds/leds-class-multicolor.rst. */
static const char *led = "multicolor:status/green+blue+red/255";

/* The device the module adds for its driver to bind to. */
static struct platform_device *vled_pdev;

/*
 * A charp parameter stops at 1024 bytes, too few for a keyboard's 126 LEDs.
 * The string lives in the module's copy of its arguments, which is freed
 * only with the module, so keeping a pointer to it is enough.
 */
static int led_param_set(const char *val, const struct kernel_param *kp)
{
	*(const char **)kp->arg = val;
	return 0;
}

/* Not in sysfs: a parameter shows there only up to PAGE_SIZE bytes. */
static const struct kernel_param_ops led_param_ops = {
	.set = led_param_set,
};
module_param_cb(led, &led_param_ops, &led, 0);
MODULE_PARM_DESC(led, "LEDs to create: NAME/COLOR+COLOR+.../MAX[,...] (default: multicolor:status/green+blue+red/255)");

static char *busy;
module_param(busy, charp, 0);
MODULE_PARM_DESC(busy, "LEDs whose brightness the class refuses to write: NAME[,NAME...]");

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
static const char *color_name(unsigned int id)
{
	return led_get_color_name(id);
}
#else
/* Exported by led-core.c up to 6.10, declared only in drivers/leds/leds.h;
 * 6.11 unexported it (commit 493179e692db, "leds: core: Unexport
 * led_colors[] array") for led_get_color_name() (commit 5f2e950755c7). */
extern const char * const led_colors[LED_COLOR_ID_MAX];

static const char *color_name(unsigned int id)
{
	return led_colors[id];
}
#endif

/* Only the names this kernel knows: before 6.7 it has none for IDs 10-14
 * (commit a067943129b4, "leds: core: Add more colors from DT bindings to
 * led_colors"). */
static int color_id(const char *name)
{
	unsigned int id;

	for (id = 0; id < LED_COLOR_ID_MAX; id++)
		if (color_name(id) && !strcmp(color_name(id), name))
			return id;
	return -ENOENT;
}

static void vled_brightness_set(struct led_classdev *cdev,
				enum led_brightness brightness)
{
	struct led_classdev_mc *mc = lcdev_to_mccdev(cdev);
	struct vled *v = container_of(mc, struct vled, mc);
	unsigned long flags;
	unsigned int i;

	struct vled_log_entry *entry;

	/* Called from timers too (software blink): no sleeping. */
	spin_lock_irqsave(&v->lock, flags);
	led_mc_calc_color_components(mc, brightness);
	entry = &v->log[v->logged++ % VLED_LOG_SIZE];
	entry->ns = ktime_get_ns();
	entry->brightness = brightness;
	for (i = 0; i < mc->num_colors; i++)
		entry->sent[i] = v->sent[i] = mc->subled_info[i].brightness;
	spin_unlock_irqrestore(&v->lock, flags);
}

static ssize_t components_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct vled *v = container_of(attr, struct vled, components);
	unsigned long flags;
	unsigned int i;
	int len = 0;

	spin_lock_irqsave(&v->lock, flags);
	for (i = 0; i < v->mc.num_colors; i++)
		len += sysfs_emit_at(buf, len, "%s%s %u", i ? " " : "",
				     color_name(v->subled[i].color_index),
				     v->sent[i]);
	spin_unlock_irqrestore(&v->lock, flags);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

static ssize_t log_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	struct vled *v = container_of(attr, struct vled, log_attr);
	const struct vled_log_entry *entry;
	unsigned long flags;
	unsigned int n, i;
	int len = 0;

	spin_lock_irqsave(&v->lock, flags);
	n = v->logged > VLED_LOG_SIZE ? v->logged - VLED_LOG_SIZE : 0;
	for (; n < v->logged; n++) {
		entry = &v->log[n % VLED_LOG_SIZE];
		len += sysfs_emit_at(buf, len, "%llu %u",
				     div_u64(entry->ns, NSEC_PER_USEC),
				     entry->brightness);
		for (i = 0; i < v->mc.num_colors; i++)
			len += sysfs_emit_at(buf, len, " %u", entry->sent[i]);
		len += sysfs_emit_at(buf, len, "\n");
	}
	spin_unlock_irqrestore(&v->lock, flags);
	return len;
}

static int parse_name(struct vled_priv *priv, const char *name,
		      unsigned int index)
{
	unsigned int i;

	if (!*name || strlen(name) >= LED_MAX_NAME_SIZE) {
		pr_err("LED name '%s' must have 1 to %d characters\n",
		       name, LED_MAX_NAME_SIZE - 1);
		return -EINVAL;
	}
	for (i = 0; name[i]; i++) {
		if (!isgraph(name[i])) {
			pr_err("LED name '%s' has a space or a control character\n",
			       name);
			return -EINVAL;
		}
	}
	for (i = 0; i < index; i++) {
		if (!strcmp(priv->leds[i].mc.led_cdev.name, name)) {
			pr_err("LED name '%s' is given twice\n", name);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_value(const char *led, const char *what, const char *s,
		       unsigned int *val)
{
	if (kstrtouint(s, 10, val) || !*val || *val > VLED_MAX_BRIGHTNESS) {
		pr_err("LED %s: %s must be 1 to %d, got '%s'\n",
		       led, what, VLED_MAX_BRIGHTNESS, s);
		return -EINVAL;
	}
	return 0;
}

/* COLOR:N, a channel's own maximum; 0 (none) for a COLOR alone. */
static int parse_channel_max(const char *name, char *color, unsigned int *max)
{
	char *n = strchr(color, ':');

	*max = 0;
	if (!n)
		return 0;
	*n++ = '\0';
#ifdef VLED_MC_MAX_INTENSITY
	return parse_value(name, "a channel's maximum", n, max);
#else
	pr_err("LED %s: %s:%s: this kernel has no per-channel maxima (mc_subled.max_intensity, Linux 7.2)\n",
	       name, color, n);
	return -EINVAL;
#endif
}

/* The class's led_mc_get_max_intensity(): the channel's, or max_brightness. */
static unsigned int channel_max(const struct vled *v, unsigned int i)
{
#ifdef VLED_MC_MAX_INTENSITY
	if (v->subled[i].max_intensity)
		return v->subled[i].max_intensity;
#endif
	return v->mc.led_cdev.max_brightness;
}

static int parse_colors(struct vled *v, char *colors)
{
	const char *name = v->mc.led_cdev.name;
	unsigned int n = 0, max;
	char *color;
	int id;

	while ((color = strsep(&colors, "+"))) {
		if (parse_channel_max(name, color, &max))
			return -EINVAL;
		id = color_id(color);
		if (id < 0) {
			pr_err("LED %s: unknown color '%s' (use the names multi_index shows, e.g. red)\n",
			       name, color);
			return -EINVAL;
		}
		if (n == LED_COLOR_ID_MAX) {
			pr_err("LED %s: more than %d colors\n",
			       name, LED_COLOR_ID_MAX);
			return -EINVAL;
		}
#ifdef VLED_MC_MAX_INTENSITY
		v->subled[n].max_intensity = max;
#endif
		v->subled[n++].color_index = id;
	}
	v->mc.num_colors = n;
	return 0;
}

static int parse_max(struct vled *v, const char *max)
{
	unsigned int val;

	if (parse_value(v->mc.led_cdev.name, "max_brightness", max, &val))
		return -EINVAL;
	v->mc.led_cdev.max_brightness = val;
	return 0;
}

static unsigned int count_char(const char *s, char c)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* One NAME/COLOR+COLOR+.../MAX, cut up in place. */
static int parse_led(struct vled_priv *priv, unsigned int index, char *spec)
{
	struct vled *v = &priv->leds[index];
	char *name, *colors;
	unsigned int i;
	int ret;

	if (count_char(spec, '/') != 2) {
		pr_err("led=: '%s' is not NAME/COLOR+COLOR+.../MAX (LED names cannot have '/')\n",
		       spec);
		return -EINVAL;
	}
	name = strsep(&spec, "/");
	colors = strsep(&spec, "/");
	ret = parse_name(priv, name, index);
	if (ret)
		return ret;
	v->mc.led_cdev.name = name;
	ret = parse_colors(v, colors) ?: parse_max(v, spec);
	if (ret)
		return ret;
	/* Full intensity: brightness alone lights every channel. */
	for (i = 0; i < v->mc.num_colors; i++)
		v->subled[i].intensity = channel_max(v, i);
	return 0;
}

/* The LEDs of led=, in memory that lives as long as the device is bound. */
static struct vled_priv *parse_leds(struct device *dev)
{
	struct vled_priv *priv;
	char *specs, *spec;
	unsigned int n = 0;
	int ret;

	/* The LEDs' names point into this copy, cut up. */
	specs = devm_kstrdup(dev, led, GFP_KERNEL);
	if (!specs)
		return ERR_PTR(-ENOMEM);
	n = count_char(specs, ',') + 1;
	priv = devm_kzalloc(dev, struct_size(priv, leds, n), GFP_KERNEL);
	if (!priv)
		return ERR_PTR(-ENOMEM);
	priv->num_leds = n;
	for (n = 0; (spec = strsep(&specs, ",")); n++) {
		ret = parse_led(priv, n, spec);
		if (ret)
			return ERR_PTR(ret);
	}
	return priv;
}

static int register_led(struct device *dev, struct vled *v)
{
	struct led_classdev *cdev = &v->mc.led_cdev;
	int ret;

	spin_lock_init(&v->lock);
	v->log = devm_kcalloc(dev, VLED_LOG_SIZE, sizeof(*v->log), GFP_KERNEL);
	if (!v->log)
		return -ENOMEM;
	v->mc.subled_info = v->subled;
	cdev->brightness_set = vled_brightness_set;
	ret = devm_led_classdev_multicolor_register_ext(dev, &v->mc, NULL);
	if (ret) {
		pr_err("cannot register LED %s: error %d\n", cdev->name, ret);
		return ret;
	}
	/*
	 * The class renames a LED whose name is taken: refuse that instead
	 * (the failed probe unregisters it).
	 */
	if (strcmp(dev_name(cdev->dev), cdev->name)) {
		pr_err("LED %s exists already\n", cdev->name);
		return -EEXIST;
	}
	return 0;
}

/* Is NAME in the comma-separated list busy=? */
static bool is_busy(const char *name)
{
	size_t len = strlen(name);
	const char *p = busy;

	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

static void make_busy(struct led_classdev *cdev)
{
	mutex_lock(&cdev->led_access);
	led_sysfs_disable(cdev);
	mutex_unlock(&cdev->led_access);
}

/*
 * GROUP/NAME for every LED, the attribute at offset in its struct vled.
 * Added after the LEDs, so removed before them: a LED's unregistering
 * still sends it a last "off".
 */
static int add_readback(struct device *dev, struct vled_priv *priv,
			struct attribute_group *group, const char *name,
			size_t offset,
			ssize_t (*show)(struct device *dev,
					struct device_attribute *attr,
					char *buf))
{
	struct device_attribute *attr;
	struct attribute **attrs;
	unsigned int i;

	attrs = devm_kcalloc(dev, priv->num_leds + 1, sizeof(*attrs),
			     GFP_KERNEL);
	if (!attrs)
		return -ENOMEM;
	for (i = 0; i < priv->num_leds; i++) {
		attr = (void *)&priv->leds[i] + offset;
		sysfs_attr_init(&attr->attr);
		attr->attr.name = priv->leds[i].mc.led_cdev.name;
		attr->attr.mode = 0444;
		attr->show = show;
		attrs[i] = &attr->attr;
	}
	group->name = name;
	group->attrs = attrs;
	return devm_device_add_group(dev, group);
}

static int vled_setup(struct device *dev)
{
	struct vled_priv *priv;
	unsigned int i;
	int ret;

	priv = parse_leds(dev);
	if (IS_ERR(priv))
		return PTR_ERR(priv);
	for (i = 0; i < priv->num_leds; i++) {
		ret = register_led(dev, &priv->leds[i]);
		if (ret)
			return ret;
	}
	ret = add_readback(dev, priv, &priv->components, "components",
			   offsetof(struct vled, components), components_show) ?:
	      add_readback(dev, priv, &priv->log, "log",
			   offsetof(struct vled, log_attr), log_show);
	if (ret)
		return ret;
	for (i = 0; i < priv->num_leds; i++)
		if (is_busy(priv->leds[i].mc.led_cdev.name))
			make_busy(&priv->leds[i].mc.led_cdev);
	dev_set_drvdata(dev, priv);
	return 0;
}

/*
 * The cause of a failure is logged already.  For any error but -ENODEV
 * the driver core would log a line of its own after it, and the last line
 * must say what to fix in led=.
 */
static int vled_probe(struct platform_device *pdev)
{
	return vled_setup(&pdev->dev) ? -ENODEV : 0;
}

static struct platform_driver vled_driver = {
	.probe = vled_probe,
	.driver = {
		.name = KBUILD_MODNAME,
		/* vled_init() sees the probe's outcome when the device is added. */
		.probe_type = PROBE_FORCE_SYNCHRONOUS,
	},
};

static int __init vled_init(void)
{
	int ret;

	ret = platform_driver_register(&vled_driver);
	if (ret)
		return ret;
	vled_pdev = platform_device_register_simple(KBUILD_MODNAME,
						    PLATFORM_DEVID_NONE,
						    NULL, 0);
	if (IS_ERR(vled_pdev)) {
		ret = PTR_ERR(vled_pdev);
		goto err_driver;
	}
	/* A failed probe leaves the device without a driver, and says why. */
	if (!platform_get_drvdata(vled_pdev)) {
		ret = -ENODEV;
		goto err_device;
	}
	return 0;
err_device:
	platform_device_unregister(vled_pdev);
err_driver:
	platform_driver_unregister(&vled_driver);
	return ret;
}

static void __exit vled_exit(void)
{
	/* Unbinding releases the LEDs and their files (devm). */
	platform_device_unregister(vled_pdev);
	platform_driver_unregister(&vled_driver);
}

module_init(vled_init);
module_exit(vled_exit);

MODULE_DESCRIPTION("Virtual multicolor LEDs, for tests and demos");
MODULE_LICENSE("GPL");
