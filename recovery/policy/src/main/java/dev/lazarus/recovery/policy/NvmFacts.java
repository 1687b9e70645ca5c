package dev.lazarus.recovery.policy;

/**
 * What the ranks found in NVM when they attached their heaps, agreed collectively.
 *
 * @param anyUnusable     some rank's state must not be computed on (damaged, another application's, a failed attempt)
 * @param firstUnusable   "rank r: reason" of the lowest such rank, or null
 * @param anyFresh        some rank has no state from an earlier run
 * @param anyResumable    some rank has a consistent heap and bookmark
 * @param freshReason     this rank's own account of having no state (what it logs), or null
 * @param lowestBookmark  the smallest bookmarked iteration over the resumable ranks
 * @param highestBookmark the largest
 */
public record NvmFacts(boolean anyUnusable, String firstUnusable, boolean anyFresh, boolean anyResumable,
                       String freshReason, int lowestBookmark, int highestBookmark) {
}
