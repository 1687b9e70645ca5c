/**
 * The catalog of a level: which versions it holds, which are complete, and why the others are not.
 */
package dev.lazarus.store.catalog;
