// The interleaved grad_output rows and lane boxes of conv_params.h (the shifted-x grad_weight's channel-tile form)
// against what its kernel assumes; built and run by tests/test_conv_params_cpu.py.
#include "conv_params.h"
#include <cstdio>
using namespace tconv;
int main() {
  long bad = 0;
  for (int interleave = 2; interleave <= 4; interleave *= 2) {
    const int box_rows = interleaved_box_rows(interleave);
    bool seen[64] = {};
    for (int row = 0; row < 64; ++row) {
      const int channel = interleaved_row_channel(row, interleave), box = interleaved_row_box(row, interleave);
      // each of the tile's 64 channels in exactly one row
      if (channel < 0 || channel >= 64 || seen[channel]) ++bad;
      if (channel >= 0 && channel < 64) seen[channel] = true;
      // box `box` (the map's channel `box` of each R) fills rows box x 64 / R onwards in channel order
      if (channel % interleave != box || row != box * box_rows + channel / interleave) ++bad;
    }
    for (int warp = 0; warp < 4; ++warp) {
      // a warp's 16 rows lie in one box (one shift and mask per warp), and rows gid, gid + 8 hold channels 8 R apart
      for (int r = 16 * warp; r < 16 * warp + 16; ++r)
        if (interleaved_row_box(r, interleave) != interleaved_row_box(16 * warp, interleave)) ++bad;
      for (int gid = 0; gid < 8; ++gid)
        if (interleaved_row_channel(16 * warp + gid + 8, interleave) -
                interleaved_row_channel(16 * warp + gid, interleave) != 8 * interleave)
          ++bad;
    }
  }
  // Lane boxes: lane 0 none; lanes 1 .. 3 R each take one (tile, box) of three C_out tiles once
  for (int boxes = 1; boxes <= 4; boxes *= 2) {
    if (interleaved_lane_box(0, boxes).tile != -1) ++bad;
    bool taken[3][4] = {};
    for (int lane = 1; lane <= 3 * boxes; ++lane) {
      const LaneBox b = interleaved_lane_box(lane, boxes);
      if (b.tile < 0 || b.tile >= 3 || b.sub < 0 || b.sub >= boxes || taken[b.tile][b.sub]) {
        ++bad;
        continue;
      }
      taken[b.tile][b.sub] = true;
    }
    if (interleaved_lane_box(3 * boxes + 1, boxes).tile != 3) ++bad;  // past the three tiles: not live
  }
  std::printf("bad %ld\n", bad);
  return bad != 0;
}
