package dev.lazarus.store.export;

import dev.lazarus.store.ElementType;
import dev.lazarus.store.Variable;

import io.jhdf.AbstractWritableNode;
import io.jhdf.Constants;
import io.jhdf.JhdfInfo;
import io.jhdf.ObjectHeader;
import io.jhdf.api.Attribute;
import io.jhdf.api.Group;
import io.jhdf.api.NodeType;
import io.jhdf.api.WritableDataset;
import io.jhdf.exceptions.HdfWritingException;
import io.jhdf.filter.PipelineFilterWithData;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;
import io.jhdf.object.datatype.OrderedDataType;
import io.jhdf.object.message.AttributeInfoMessage;
import io.jhdf.object.message.AttributeMessage;
import io.jhdf.object.message.DataLayout;
import io.jhdf.object.message.DataLayoutMessage.ContiguousDataLayoutMessage;
import io.jhdf.object.message.DataSpace;
import io.jhdf.object.message.DataSpaceMessage;
import io.jhdf.object.message.DataTypeMessage;
import io.jhdf.object.message.FillValueMessage;
import io.jhdf.object.message.Message;
import io.jhdf.storage.HdfFileChannel;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A jhdf dataset whose bytes are taken from memory when jhdf writes the file, rather than from a Java array handed
 * over up front.
 *
 * <p>Why not jhdf's own {@code putDataset(name, array)}: jhdf 0.13 keeps every array until
 * {@code WritableHdfFile.close()}, so an export built from arrays holds every rank's state in the heap at once (twice,
 * with the copy out of the checkpoint), and it cannot describe an array with no elements (it reads element 0 to find
 * the type). {@code WritableGroup.putDataset} accepts a ready-made {@link WritableDataset}; this one holds only its
 * type and shape until written, then asks its source for the bytes and writes them as they are in memory. The export
 * therefore holds one rank at a time, writes variables larger than a Java array can hold, and writes zero-length
 * variables with their true shape.
 *
 * <p>It is the only class that uses jhdf's internals (object header and message classes, as jhdf's own writable
 * dataset does); the tests read its files back with jhdf and with h5dump, which catches a jhdf upgrade that changes
 * them.
 */
final class SegmentDataset extends AbstractWritableNode implements WritableDataset {
    /** Bytes handed to one {@code write}: a ByteBuffer view is limited to 2 GiB. */
    private static final long WRITE_SLICE = 64L << 20;
    /**
     * Room left after each dataset for the trailer jhdf appends at the channel's position when the file is closed
     * ("jHDF - version - os - arch - byte order"). Only datasets move that position, so without the room the trailer
     * would overwrite the header of a group with no datasets (a rank with no variables) written after the last one.
     */
    static final int TRAILER_ROOM = 64 + (JhdfInfo.VERSION + JhdfInfo.OS + JhdfInfo.ARCH + JhdfInfo.BYTE_ORDER)
            .getBytes(StandardCharsets.UTF_8).length;

    private final DataType dataType;
    private final DataSpace dataSpace;
    private final long[] shape;
    private final long byteSize;
    private final Supplier<MemorySegment> source;

    /**
     * @param parent   the group the dataset is put into
     * @param variable name, element type and shape of the dataset
     * @param source   called once, while jhdf writes the file, for the variable's bytes in native order; it may throw
     *                 an unchecked exception, which ends the write
     */
    SegmentDataset(Group parent, Variable variable, Supplier<MemorySegment> source) {
        super(parent, variable.name());
        this.dataType = dataType(variable.type());
        this.shape = variable.shape();
        this.byteSize = variable.byteSize();
        this.source = source;
        // jhdf builds a dataspace only from an array; one of extent 1 in every dimension has the right rank.
        int[] ones = new int[shape.length];
        Arrays.fill(ones, 1);
        this.dataSpace = DataSpace.modifyDimensions(
                DataSpace.fromObject(Array.newInstance(dataType.getJavaType(), ones)), shape);
    }

    /** @return the HDF5 type of an element type: jhdf declares native byte order, the order memory holds */
    static DataType dataType(ElementType type) {
        DataType dataType = switch (type) {
            case BYTE -> new FixedPoint(1);
            case INT -> new FixedPoint(4);
            case LONG -> new FixedPoint(8);
            case FLOAT -> FloatingPoint.FLOAT;
            case DOUBLE -> FloatingPoint.DOUBLE;
        };
        ByteOrder order = ((OrderedDataType) dataType).getByteOrder();
        if (!order.equals(ByteOrder.nativeOrder())) {
            // The bytes are copied as memory holds them, so the declared order must be the native one.
            throw new IllegalStateException("HDF5 type of " + type + " has byte order " + order + ", memory has "
                    + ByteOrder.nativeOrder());
        }
        return dataType;
    }

    /**
     * Writes the object header and then the data, contiguous after it, as jhdf's own datasets do, and points the
     * channel at the {@link #TRAILER_ROOM} after the data. On failure the file channel is closed, since jhdf's
     * {@code close()} does not close it when writing fails.
     *
     * @return the position after the data and the trailer room, where jhdf puts the next object
     */
    @Override
    public long write(HdfFileChannel channel, long position) {
        try {
            List<Message> messages = new ArrayList<>();
            messages.add(DataTypeMessage.create(dataType));
            messages.add(DataSpaceMessage.create(dataSpace));
            messages.add(FillValueMessage.NO_FILL);
            int layoutIndex = messages.size();
            // A placeholder of the same encoded length: the header's size fixes where the data starts.
            messages.add(ContiguousDataLayoutMessage.create(Constants.UNDEFINED_ADDRESS, Constants.UNDEFINED_ADDRESS));
            addAttributes(messages);
            long dataAddress = position + new ObjectHeader.ObjectHeaderV2(position, messages).toBuffer().limit();
            if (byteSize == 0) {
                // No elements, no storage: the HDF5 library leaves the address undefined too.
                messages.set(layoutIndex, ContiguousDataLayoutMessage.create(Constants.UNDEFINED_ADDRESS, 0));
            } else {
                writeData(channel, dataAddress, source.get());
                messages.set(layoutIndex, ContiguousDataLayoutMessage.create(dataAddress, byteSize));
            }
            channel.write(new ObjectHeader.ObjectHeaderV2(position, messages).toBuffer(), position);
            long end = dataAddress + byteSize;
            channel.position(end);
            return end + TRAILER_ROOM;
        } catch (RuntimeException e) {
            try {
                channel.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private void addAttributes(List<Message> messages) {
        if (getAttributes().isEmpty()) {
            return;
        }
        messages.add(AttributeInfoMessage.create());
        for (Map.Entry<String, Attribute> attribute : getAttributes().entrySet()) {
            messages.add(AttributeMessage.create(attribute.getKey(), attribute.getValue()));
        }
    }

    private void writeData(HdfFileChannel channel, long dataAddress, MemorySegment memory) {
        if (memory.byteSize() != byteSize) {
            throw new IllegalStateException("dataset " + getPath() + ": memory bytes=" + memory.byteSize()
                    + " but shape and type need " + byteSize);
        }
        for (long offset = 0; offset < byteSize; offset += WRITE_SLICE) {
            ByteBuffer buffer = memory.asSlice(offset, Math.min(WRITE_SLICE, byteSize - offset)).asByteBuffer();
            long at = dataAddress + offset;
            while (buffer.hasRemaining()) {
                at += channel.write(buffer, at);
            }
        }
    }

    @Override
    public long getSize() {
        return byteSize / dataType.getSize();
    }

    @Override
    public long getSizeInBytes() {
        return byteSize;
    }

    @Override
    public long getStorageInBytes() {
        return byteSize;
    }

    @Override
    public int[] getDimensions() {
        return Arrays.stream(shape).mapToInt(Math::toIntExact).toArray();
    }

    @Override
    public long[] getDimensionsAsLong() {
        return shape.clone();
    }

    @Override
    public boolean isScalar() {
        return false;
    }

    @Override
    public boolean isEmpty() {
        return false; // jhdf's "empty" is a null dataspace; this one is simple, possibly with no elements
    }

    @Override
    public boolean isCompound() {
        return false;
    }

    @Override
    public boolean isVariableLength() {
        return false;
    }

    @Override
    public long[] getMaxSize() {
        return shape.clone();
    }

    @Override
    public DataLayout getDataLayout() {
        return DataLayout.CONTIGUOUS;
    }

    @Override
    public Object getData() {
        throw new HdfWritingException("dataset " + getPath() + ": data is written from memory, not held");
    }

    @Override
    public Object getDataFlat() {
        return getData();
    }

    @Override
    public Object getData(long[] sliceOffset, int[] sliceDimensions) {
        return getData();
    }

    @Override
    public Class<?> getJavaType() {
        return dataType.getJavaType();
    }

    @Override
    public DataType getDataType() {
        return dataType;
    }

    @Override
    public Object getFillValue() {
        return null;
    }

    @Override
    public List<PipelineFilterWithData> getFilters() {
        return Collections.emptyList();
    }

    @Override
    public NodeType getType() {
        return NodeType.DATASET;
    }

    @Override
    public boolean isGroup() {
        return false;
    }

    @Override
    public long getAddress() {
        throw new HdfWritingException("dataset " + getPath() + ": address not known until written");
    }

    @Override
    public boolean isLink() {
        return false;
    }

    @Override
    public boolean isAttributeCreationOrderTracked() {
        return false;
    }
}
