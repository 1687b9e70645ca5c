package dev.lazarus.mpi.local;

import dev.lazarus.mpi.MpiException;
import dev.lazarus.mpi.ReduceOp;
import dev.lazarus.mpi.Request;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SingleRankCommTest {
    private final SingleRankComm comm = new SingleRankComm();

    @Test
    void messagesToItselfArriveInOrderByTag() {
        comm.send(new double[] {1, 2}, 0, 2, 0, 5);
        comm.send(new double[] {3}, 0, 1, 0, 6);
        double[] in = new double[5];
        assertEquals(1, comm.recv(in, 2, 3, 0, 6));
        assertEquals(2, comm.recv(in, 0, 2, 0, 5));
        assertArrayEquals(new double[] {1, 2, 3, 0, 0}, in);
    }

    @Test
    void periodicHaloExchangeWithItselfWorks() {
        long[] cells = {0, 10, 20, 0};
        comm.sendrecv(cells, 1, 1, 0, 1, cells, 3, 1, 0, 1);
        comm.sendrecv(cells, 2, 1, 0, 2, cells, 0, 1, 0, 2);
        assertArrayEquals(new long[] {20, 10, 20, 10}, cells);
    }

    @Test
    void irecvPostedBeforeTheSendIsMatchedOnWait() {
        int[] in = new int[2];
        Request request = comm.irecv(in, 0, 2, 0, 9);
        comm.send(new int[] {7, 8}, 0, 2, 0, 9);
        request.waitFor();
        assertArrayEquals(new int[] {7, 8}, in);
    }

    @Test
    void collectivesCopyAndHooksSeeTheWrite() {
        List<String> seen = new ArrayList<>();
        comm.addReceiveHook((b, o, l) -> seen.add(o + "+" + l));
        double[] data = {0, 4, 5};
        comm.allreduce(data, 1, data, 0, 2, ReduceOp.SUM);
        assertArrayEquals(new double[] {4, 5, 5}, data);
        int[] out = new int[3];
        comm.alltoallv(new int[] {1, 2, 3}, 0, new int[] {2}, new int[] {1}, out, 0, new int[] {2}, new int[] {1});
        assertArrayEquals(new int[] {0, 2, 3}, out);
        assertEquals(List.of("0+16", "4+8"), seen);
    }

    @Test
    void receiveWithoutAMessageFailsInsteadOfHanging() {
        assertEquals("single-rank recv: no message with tag=3 was sent (it would wait forever)",
                assertThrows(MpiException.class, () -> comm.recv(new int[1], 0, 1, 0, 3)).getMessage());
    }
}
