/**
 * The self-describing rank checkpoint: a manifest (variables with name, element type and shape; chunks with CRC32C)
 * and a data file of chunks, their layout, and checked reading and writing.
 */
package dev.lazarus.store.format;
