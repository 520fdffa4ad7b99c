// Reads a --conv plan file: the same "key value" lines runtime/conv/conv_load.c parses.
#include "plan.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace conv_plan {

namespace {
const char* const NAMES[roles] = {"spectrum1", "spectrum2", "resample", "pass1", "pass2", "pass3"};
}

const char* role_name(int r) { return r >= 0 && r < roles ? NAMES[r] : "?"; }

std::string read(const std::string& path, plan& p) {
  std::ifstream f(path);
  if (!f) return "cannot read " + path;
  p = plan{};
  p.info.output_format = SPDRT_RGBA32F;
  int version = 0;
  std::string line, format;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::string key, value;
    in >> key;
    if (key == "spdgen-conv-plan") {
      in >> version;
    } else if (key == "shader") {
      char role[32], file[256];
      shader s;
      const char* format = "shader %31s file %255s wg %u subgroup %u shared %u n %u columns %u groups %u";
      if (std::sscanf(line.c_str(), format, role, file, &s.wg, &s.subgroup, &s.shared, &s.n, &s.columns,
                      &s.groups) != 8)
        return "malformed: " + line;
      int r = 0;
      while (r < roles && std::strcmp(role, NAMES[r])) ++r;
      if (r == roles) return "unknown shader " + std::string(role);
      p.shaders[r] = s;
    } else if (key == "image") {
      in >> p.info.image_width >> p.info.image_height;
    } else if (key == "psf") {
      in >> p.info.psf_width >> p.info.psf_height;
    } else if (key == "padded") {
      in >> p.info.padded_width >> p.info.padded_height;
    } else if (key == "spectrum-size") {
      in >> p.info.spectrum_width >> p.info.spectrum_height;
    } else if (key == "channels") {
      in >> p.info.channels;
    } else if (key == "buffers") {
      for (uint64_t& v : p.values) in >> v;
    } else {
      in >> value;
      if (key == "padding") p.info.mirror = value == "mirror";
      else if (key == "spectrum") p.info.resampled = value == "resampled";
      else if (key == "first-axis") p.info.first_axis_y = value == "y";
      else if (key == "input") p.info.input_buffer = value == "buffer";
      else if (key == "output") p.info.output_buffer = value == "buffer";
      else if (key == "storage") p.info.f16 = value == "f16";
      else if (key == "format") format = value;
    }
    if (in.fail()) return "malformed: " + line;
  }
  if (version != 2) return path + ": not a version 2 plan";
  if (format == "rgba16f") p.info.output_format = SPDRT_RGBA16F;
  if (!p.info.channels || p.info.channels > 4 || !p.info.image_width || !p.info.psf_width)
    return path + ": no channels or sizes";
  for (int r = 0; r < roles; ++r)
    if (!p.shaders[r].wg != (r == resample && !p.info.resampled))
      return path + ": shader " + NAMES[r] + (p.shaders[r].wg ? " present" : " missing");
  return "";
}

} // namespace conv_plan
