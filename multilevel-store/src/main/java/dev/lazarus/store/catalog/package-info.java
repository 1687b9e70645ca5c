/**
 * The catalog of a level: which versions it holds, which are complete, and why the others are not, with this node's
 * L2 parity of each version on L1 ({@link dev.lazarus.store.catalog.Catalog}); and which versions a level must keep
 * ({@link dev.lazarus.store.catalog.Retention}: the newest verified ones and the chains they increment).
 */
package dev.lazarus.store.catalog;
