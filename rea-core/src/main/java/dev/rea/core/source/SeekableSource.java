package dev.rea.core.source;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;

/**
 * A model file that the caller has opened itself, for callers whose files are not on the local
 * file system (a Spark executor reading a Hadoop file system, an object store, an in-memory
 * upload): the channel, a name to record, and the file's identity before and after the read
 * (CONTRACT section 14).
 *
 * <p>REA reads the channel with {@link SeekableByteChannel#position(long)} and {@link
 * SeekableByteChannel#read}, never writes it, and does not close it: the caller owns it. REA
 * reads only the header unless a full hash is asked for.
 */
public interface SeekableSource {
  /**
   * @return the name recorded as {@code request.path} and {@code artifact.path}: an absolute path
   *     or a URI ({@code hdfs://nn/models/a.gguf}); at most 4,095 bytes of UTF-8
   */
  String name();

  /** @return the open channel, positioned anywhere */
  SeekableByteChannel channel();

  /** @return the identity observed when the channel was opened (before any read) */
  SourceIdentity identity();

  /**
   * The identity observed now, after the read. The default returns {@link #identity()}, which
   * checks nothing beyond the channel's size: sources that can look again (a Hadoop {@code
   * getFileStatus}) should.
   *
   * @return the identity now
   * @throws IOException when it cannot be observed (reported as {@code execution_failure} /
   *     {@code io_error})
   */
  default SourceIdentity identityNow() throws IOException {
    return identity();
  }
}
