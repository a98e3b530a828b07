/**
 * Writers of the synthetic benchmark corpus: GGUF and safetensors files, model sets and a scan
 * tree, generated from fixed seeds so that every run measures the same bytes.
 */
@NullMarked
package dev.rea.bench.corpus;

import org.jspecify.annotations.NullMarked;
