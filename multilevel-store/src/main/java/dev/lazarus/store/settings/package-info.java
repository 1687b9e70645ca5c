/**
 * Every setting of Lazarus in one table ({@link dev.lazarus.store.settings.Settings}): its property, the environment
 * variable derived from it by one rule ({@link dev.lazarus.store.settings.Setting#environment()}), its default and
 * meaning, and the old environment names still read for one release. {@link dev.lazarus.store.settings.SettingSource}
 * reads them with one precedence (property, then environment, then the deprecated names) and one set of parsers whose
 * errors name the setting. The command line, the ranks and the node daemon all read through it; the README's
 * configuration table is checked against the table by a test.
 */
package dev.lazarus.store.settings;
