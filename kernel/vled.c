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
 * What a real driver would send to its hardware, the per-color values the
 * class computes, is readable, in multi_index order, from
 *
 *   /sys/devices/platform/vled/components/NAME   e.g. "green 21 blue 113 red 69"
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

struct vled {
	struct led_classdev_mc mc;
	struct mc_subled subled[LED_COLOR_ID_MAX];
	/* The hardware's registers: the components last sent, per channel. */
	unsigned int sent[LED_COLOR_ID_MAX];
	spinlock_t lock;		/* guards sent[] and subled[].brightness */
	struct device_attribute components;
};

/* The default is the example of Documentation/leds/leds-class-multicolor.rst. */
static const char *led = "multicolor:status/green+blue+red/255";

static char *specs;		/* a copy of led=, cut into the LEDs' names */
static struct vled *vleds;
static unsigned int num_vleds;
static struct attribute **component_attrs;
static struct attribute_group components_group = { .name = "components" };
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
/* Exported by led-core.c until 6.11, declared only in drivers/leds/leds.h. */
extern const char * const led_colors[LED_COLOR_ID_MAX];

static const char *color_name(unsigned int id)
{
	return led_colors[id];
}
#endif

/* Only the names this kernel knows: before 6.7 it has none for IDs 10-14. */
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

	/* Called from timers too (software blink): no sleeping. */
	spin_lock_irqsave(&v->lock, flags);
	led_mc_calc_color_components(mc, brightness);
	for (i = 0; i < mc->num_colors; i++)
		v->sent[i] = mc->subled_info[i].brightness;
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

static int parse_name(const char *name, unsigned int index)
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
		if (!strcmp(vleds[i].mc.led_cdev.name, name)) {
			pr_err("LED name '%s' is given twice\n", name);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_colors(struct vled *v, char *colors)
{
	const char *name = v->mc.led_cdev.name;
	unsigned int n = 0;
	char *color;
	int id;

	while ((color = strsep(&colors, "+"))) {
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
		v->subled[n++].color_index = id;
	}
	v->mc.num_colors = n;
	return 0;
}

static int parse_max(struct vled *v, const char *max)
{
	unsigned int val;

	if (kstrtouint(max, 10, &val) || !val || val > VLED_MAX_BRIGHTNESS) {
		pr_err("LED %s: max_brightness must be 1 to %d, got '%s'\n",
		       v->mc.led_cdev.name, VLED_MAX_BRIGHTNESS, max);
		return -EINVAL;
	}
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
static int parse_led(unsigned int index, char *spec)
{
	struct vled *v = &vleds[index];
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
	ret = parse_name(name, index);
	if (ret)
		return ret;
	v->mc.led_cdev.name = name;
	ret = parse_colors(v, colors) ?: parse_max(v, spec);
	if (ret)
		return ret;
	/* Full intensity: brightness alone lights every channel. */
	for (i = 0; i < v->mc.num_colors; i++)
		v->subled[i].intensity = v->mc.led_cdev.max_brightness;
	return 0;
}

static void free_leds(void)
{
	kfree(component_attrs);
	kfree(vleds);
	kfree(specs);
}

static int parse_leds(void)
{
	char *cursor, *spec;
	unsigned int n = 0;
	int ret = -ENOMEM;

	specs = kstrdup(led, GFP_KERNEL);
	if (!specs)
		return -ENOMEM;
	num_vleds = count_char(specs, ',') + 1;
	vleds = kcalloc(num_vleds, sizeof(*vleds), GFP_KERNEL);
	component_attrs = kcalloc(num_vleds + 1, sizeof(*component_attrs),
				  GFP_KERNEL);
	if (!vleds || !component_attrs)
		goto err;
	cursor = specs;
	while ((spec = strsep(&cursor, ","))) {
		ret = parse_led(n++, spec);
		if (ret)
			goto err;
	}
	return 0;
err:
	free_leds();
	return ret;
}

static int register_led(struct vled *v)
{
	struct led_classdev *cdev = &v->mc.led_cdev;
	int ret;

	spin_lock_init(&v->lock);
	v->mc.subled_info = v->subled;
	cdev->brightness_set = vled_brightness_set;
	ret = led_classdev_multicolor_register_ext(&vled_pdev->dev, &v->mc,
						   NULL);
	if (ret) {
		pr_err("cannot register LED %s: error %d\n", cdev->name, ret);
		return ret;
	}
	/* The class renames a LED whose name is taken: refuse that instead. */
	if (strcmp(dev_name(cdev->dev), cdev->name)) {
		pr_err("LED %s exists already\n", cdev->name);
		led_classdev_multicolor_unregister(&v->mc);
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

static void make_busy(void)
{
	struct led_classdev *cdev;
	unsigned int i;

	for (i = 0; i < num_vleds; i++) {
		cdev = &vleds[i].mc.led_cdev;
		if (!is_busy(cdev->name))
			continue;
		mutex_lock(&cdev->led_access);
		led_sysfs_disable(cdev);
		mutex_unlock(&cdev->led_access);
	}
}

static void unregister_leds(unsigned int n)
{
	while (n--)
		led_classdev_multicolor_unregister(&vleds[n].mc);
}

static int register_leds(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < num_vleds; i++) {
		ret = register_led(&vleds[i]);
		if (ret) {
			unregister_leds(i);
			return ret;
		}
	}
	return 0;
}

static int add_components(void)
{
	struct device_attribute *attr;
	unsigned int i;

	for (i = 0; i < num_vleds; i++) {
		attr = &vleds[i].components;
		sysfs_attr_init(&attr->attr);
		attr->attr.name = vleds[i].mc.led_cdev.name;
		attr->attr.mode = 0444;
		attr->show = components_show;
		component_attrs[i] = &attr->attr;
	}
	components_group.attrs = component_attrs;
	return sysfs_create_group(&vled_pdev->dev.kobj, &components_group);
}

static int __init vled_init(void)
{
	int ret;

	ret = parse_leds();
	if (ret)
		return ret;
	vled_pdev = platform_device_register_simple(KBUILD_MODNAME,
						    PLATFORM_DEVID_NONE,
						    NULL, 0);
	if (IS_ERR(vled_pdev)) {
		ret = PTR_ERR(vled_pdev);
		goto err_free;
	}
	ret = register_leds();
	if (ret)
		goto err_pdev;
	ret = add_components();
	if (ret)
		goto err_leds;
	make_busy();
	return 0;
err_leds:
	unregister_leds(num_vleds);
err_pdev:
	platform_device_unregister(vled_pdev);
err_free:
	free_leds();
	return ret;
}

static void __exit vled_exit(void)
{
	/* Readers first: unregistering a LED still sends it a last "off". */
	sysfs_remove_group(&vled_pdev->dev.kobj, &components_group);
	unregister_leds(num_vleds);
	platform_device_unregister(vled_pdev);
	free_leds();
}

module_init(vled_init);
module_exit(vled_exit);

MODULE_DESCRIPTION("Virtual multicolor LEDs, for tests and demos");
MODULE_LICENSE("GPL");
