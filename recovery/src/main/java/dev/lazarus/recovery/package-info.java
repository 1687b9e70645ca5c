/**
 * Restart mechanics: re-attaching NVM heaps, fetching or rebuilding a checkpoint from a level. Also the EasyCrash
 * campaign analysis (Spearman selection of critical objects, knapsack selection of code regions, tau) and the cost
 * models (Young/Daly, EasyCrash efficiency, AIC's Markov NET^2). It holds no global state.
 */
package dev.lazarus.recovery;
