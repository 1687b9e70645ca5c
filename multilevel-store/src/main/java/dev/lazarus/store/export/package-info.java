/**
 * HDF5 export of a checkpoint version: one file per version, a group per rank and a dataset per variable holding the
 * composed state (base plus increments) with its element type and shape, readable by h5dump, h5py and jhdf. The
 * layout is drawn in {@link dev.lazarus.store.export.Hdf5ExportLayout}.
 */
package dev.lazarus.store.export;
