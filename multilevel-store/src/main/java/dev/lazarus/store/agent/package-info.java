/** Background work loops (agents) with an idle strategy and an error handler. */
package dev.lazarus.store.agent;
