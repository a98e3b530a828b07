package dev.rea.core.source;

import java.io.IOException;
import java.util.List;

/**
 * One directory of files the caller reaches its own way (a Hadoop file system in the Spark job,
 * an object store), for inspecting a model set there (CONTRACT sections 9 and 14). REA asks only
 * for plain file names in this directory, never paths: members never leave it.
 *
 * <p>Each member is opened when its turn comes ({@link #open}) and its channel closed by REA once
 * the member is inspected; only one is open at a time.
 */
public interface SetSource {
  /**
   * @return the directory as recorded: each file is recorded as this text, {@code "/"}, and its
   *     name (an absolute path or a URI such as {@code hdfs://nn/models/m}, without a trailing
   *     slash)
   */
  String directory();

  /**
   * @return the names of the directory's regular files (used when no file is named, to find the
   *     directory's one model)
   * @throws IOException when the directory cannot be listed
   */
  List<String> list() throws IOException;

  /**
   * @param name a file name in the directory
   * @return the file's size in bytes (for progress over a whole set, and to bound an index before
   *     it is read)
   * @throws IOException when it cannot be observed ({@link java.nio.file.NoSuchFileException}
   *     for a missing file)
   */
  long size(String name) throws IOException;

  /**
   * Opens one file.
   *
   * @param name a file name in the directory
   * @return the open file, its recorded name ({@link #directory()} + "/" + name) and identity
   * @throws IOException when it cannot be opened ({@link java.nio.file.NoSuchFileException} for a
   *     missing file)
   */
  SeekableSource open(String name) throws IOException;
}
