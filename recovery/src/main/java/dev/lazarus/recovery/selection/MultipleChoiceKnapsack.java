package dev.lazarus.recovery.selection;

import java.util.Arrays;

/**
 * Exact multiple-choice 0/1 knapsack by dynamic programming: from each group pick at most one option, keep the sum of
 * integer weights within a capacity, maximize the sum of values. O(groups &times; capacity &times; options) time and
 * O(groups &times; capacity) memory for the choice table.
 */
final class MultipleChoiceKnapsack {
    /** Marks a group from which nothing is chosen. */
    static final int NONE = -1;

    private MultipleChoiceKnapsack() {
    }

    /**
     * @param weights  weights[g][j]: integer weight of option j of group g, each &gt;= 0
     * @param values   values[g][j]: value of that option
     * @param capacity the largest allowed total weight, &gt;= 0
     * @return per group the chosen option index, or {@link #NONE}
     */
    static int[] solve(int[][] weights, double[][] values, int capacity) {
        int groups = weights.length;
        // best[w]: the best value of the groups seen so far with total weight at most w. Choosing nothing is worth 0.
        double[] best = new double[capacity + 1];
        double[] next = new double[capacity + 1];
        int[][] choice = new int[groups][capacity + 1];
        for (int g = 0; g < groups; g++) {
            int[] groupChoice = choice[g];
            Arrays.fill(groupChoice, NONE);
            System.arraycopy(best, 0, next, 0, best.length);
            for (int j = 0; j < weights[g].length; j++) {
                int weight = weights[g][j];
                double value = values[g][j];
                for (int w = weight; w <= capacity; w++) {
                    double candidate = best[w - weight] + value;
                    // Strictly greater: on a tie keep the lighter, earlier choice, so results are reproducible.
                    if (candidate > next[w]) {
                        next[w] = candidate;
                        groupChoice[w] = j;
                    }
                }
            }
            double[] swap = best;
            best = next;
            next = swap;
        }
        int[] chosen = new int[groups];
        int w = capacity;
        for (int g = groups - 1; g >= 0; g--) {
            chosen[g] = choice[g][w];
            if (chosen[g] != NONE) {
                w -= weights[g][chosen[g]];
            }
        }
        return chosen;
    }
}
