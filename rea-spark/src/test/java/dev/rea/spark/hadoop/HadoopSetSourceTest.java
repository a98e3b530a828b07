package dev.rea.spark.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.options.HashMode;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A set's directory on a Hadoop file system: on the local one, whose client reads through
 * symbolic links, a member that is a link is neither listed, sized nor opened, so an index
 * naming it cannot lead the job outside its inputs (it read the link's target before).
 */
class HadoopSetSourceTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void aMemberThatIsALocalLinkIsNotRead() throws Exception {
    java.nio.file.Path set = Files.createDirectories(dir.resolve("set"));
    java.nio.file.Path outside = Files.write(dir.resolve("secret.bin"), new byte[4321]);
    Files.write(set.resolve("a.safetensors"), new byte[16]);
    Files.createSymbolicLink(set.resolve("b.safetensors"), outside);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path qualified = fs.makeQualified(new Path(set.toUri()));
    try (HadoopSetSource source = new HadoopSetSource(fs, qualified, HashMode.HEADER, 0)) {
      assertThat(source.list()).containsExactly("a.safetensors");
      assertThat(source.size("a.safetensors")).isEqualTo(16);
      assertThatThrownBy(() -> source.size("b.safetensors"))
          .isInstanceOf(FileSystemException.class)
          .hasMessageContaining("b.safetensors")
          .hasMessageContaining("a symbolic link: the Spark job follows no links");
      assertThatThrownBy(() -> source.open("b.safetensors"))
          .isInstanceOf(FileSystemException.class)
          .hasMessageContaining("follows no links");
      assertThat(source.identityOf("b.safetensors")).isNull();
      assertThat(source.bytesFetched()).isZero();
    }
  }
}
