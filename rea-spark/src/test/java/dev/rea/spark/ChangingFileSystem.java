package dev.rea.spark;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local file system under the scheme {@code changing:}, where every file whose name contains
 * {@code changes} reports a later modification time each time its status is asked for: as a
 * file rewritten while the job reads it would. Registered with {@code fs.changing.impl}.
 */
public class ChangingFileSystem extends RawLocalFileSystem {
  private static final URI NAME = URI.create("changing:///");
  private final AtomicLong looks = new AtomicLong();

  @Override
  public URI getUri() {
    return NAME;
  }

  @Override
  public String getScheme() {
    return "changing";
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    FileStatus s = super.getFileStatus(f);
    if (!f.getName().contains("changes")) {
      return s;
    }
    return new FileStatus(
        s.getLen(),
        s.isDirectory(),
        s.getReplication(),
        s.getBlockSize(),
        s.getModificationTime() + 1000 * looks.incrementAndGet(),
        s.getPath());
  }
}
