/** REA's stdio MCP server ({@code rea mcp}) over the core library (CONTRACT section 7). */
package dev.rea.mcp;
