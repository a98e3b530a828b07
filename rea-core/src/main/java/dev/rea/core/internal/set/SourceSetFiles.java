package dev.rea.core.internal.set;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.detect.FormatDetector;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.ChannelReads;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SetSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@link SetFiles} over a caller's {@link SetSource} (a Hadoop directory in the Spark job). Each
 * file is opened when needed and its channel closed once it has been read.
 */
final class SourceSetFiles implements SetFiles {
  private final SetSource source;
  private final ModelInspector inspector;
  private final Limits limits;

  SourceSetFiles(SetSource source, ModelInspector inspector, Limits limits) {
    this.source = source;
    this.inspector = inspector;
    this.limits = limits;
  }

  @Override
  public String directory() {
    return source.directory();
  }

  @Override
  public String pathOf(String name) {
    return source.directory() + "/" + name;
  }

  @Override
  public List<SetGrouping.Listed> listing() throws ReaException {
    List<String> names;
    try {
      names = source.list();
    } catch (IOException e) {
      throw PathSetFiles.failure(source.directory(), e, "listing the directory failed");
    }
    List<SetGrouping.Listed> out = new ArrayList<>(names.size());
    for (String n : names) {
      if (SafetensorsIndexReader.badMemberName(n) != null) {
        continue;
      }
      out.add(new SetGrouping.Listed(n, SafetensorsIndex.isIndexName(n) ? null : modelFormat(n)));
    }
    return out;
  }

  @Override
  public @Nullable String modelFormat(String name) {
    try {
      SeekableSource s = source.open(name);
      try (SeekableByteChannel ch = s.channel()) {
        byte[] head = new byte[FormatDetector.PROBE_BYTES];
        ByteBuffer buf = ByteBuffer.wrap(head);
        ch.position(0);
        // Until full, the end of the file, or a channel that keeps reading no bytes.
        while (buf.hasRemaining() && ChannelReads.read(ch, buf) > 0) {
          // read on
        }
        DetectedFormat f =
            new FormatDetector.Probe(head, buf.position(), s.identity().size()).model();
        return f == null ? null : f.wire();
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  @Override
  public long size(String name) throws ReaException {
    try {
      return source.size(name);
    } catch (IOException e) {
      throw PathSetFiles.failure(pathOf(name), e, "reading the file's size failed");
    }
  }

  @Override
  public SafetensorsIndexReader.IndexSource indexSource(String name) throws ReaException {
    try {
      SafetensorsIndexReader.checkSize(size(name), limits);
    } catch (ReaException e) {
      throw e.withPath(pathOf(name));
    }
    return () -> {
      SeekableByteChannel ch = source.open(name).channel();
      try {
        ch.position(0);
      } catch (IOException | RuntimeException e) {
        ch.close(); // the stream that would close it is never made
        throw e;
      }
      return java.nio.channels.Channels.newInputStream(ch);
    };
  }

  @Override
  public Limits limits() {
    return limits;
  }

  @Override
  public Inspection inspect(
      String name, HashMode hash, ModelInspector.Listener listener, Cancellation cancellation) {
    SeekableSource s;
    try {
      s = source.open(name);
    } catch (IOException e) {
      return new Inspection.Failed(PathSetFiles.failure(pathOf(name), e, "opening failed"), null);
    }
    try {
      return inspector.run(s, hash, listener, cancellation);
    } finally {
      try {
        s.channel().close();
      } catch (IOException ignored) {
        // The inspection's outcome stands; nothing more is read from it.
      }
    }
  }
}
