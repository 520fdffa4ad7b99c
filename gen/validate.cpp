/* validate.cpp: the C interface of validate.h, implemented with glslang's C++ API
 * (GLSL/HLSL -> SPIR-V) and SPIRV-Tools' C++ API (spirv-val).
 *
 * Why the C++ API: glslang 12's C API cannot set an HLSL entry point and then silently
 * produces an empty module (OpEntryPoint GLCompute %_ "", LocalSize 1 1 1) that spirv-val
 * accepts. sv_check_entry walks the module's words to guard against any repeat of that.
 *
 * Diagnostics are rewritten from glslang's "ERROR: name:LINE: msg" into the compiler-style
 * "name:LINE: error: msg" followed by the offending line of the emitted source, so that a
 * failure in generated code can be read without opening the generated file.
 *
 * Nothing here throws into C: every entry point catches everything. Not thread-safe. */
#include "validate.h"

/* Debian's glslang is built with HLSL support, but its headers hide the HLSL setters (and
 * HLSL-only members) unless ENABLE_HLSL is defined; defining it also keeps our view of the
 * classes identical to the library's. */
#ifndef ENABLE_HLSL
#define ENABLE_HLSL 1
#endif

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>
#include <spirv-tools/libspirv.hpp>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

/* ------------------------------------------------------------------ helpers: strings --- */

/* Copies `s` into a malloc'd NUL-terminated buffer (the C caller frees it); NULL if out of
 * memory, which the caller sees as "failed without a message". */
char *dup_c(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p) {
        std::memcpy(p, s.data(), s.size());
        p[s.size()] = '\0';
    }
    return p;
}

/* Stores `msg` in *log (if the caller gave one) and returns the failure code. */
int fail(char **log, const std::string &msg)
{
    if (log)
        *log = dup_c(msg);
    return 1;
}

bool starts_with(const std::string &s, const char *prefix)
{
    return s.compare(0, std::strlen(prefix), prefix) == 0;
}

/* Line `line` (1-based) of `src`, without its line terminator; false if there is none. */
bool source_line(const char *src, size_t len, unsigned long line, std::string &text)
{
    if (line == 0)
        return false;
    size_t pos = 0;
    for (unsigned long n = 1; n < line; ++n) {
        const void *nl = std::memchr(src + pos, '\n', len - pos);
        if (!nl)
            return false;
        pos = static_cast<size_t>(static_cast<const char *>(nl) - src) + 1;
    }
    if (pos >= len)
        return false;
    const void *nl = std::memchr(src + pos, '\n', len - pos);
    size_t end = nl ? static_cast<size_t>(static_cast<const char *>(nl) - src) : len;
    if (end > pos && src[end - 1] == '\r')
        --end;
    text.assign(src + pos, end - pos);
    return true;
}

/* ------------------------------------------------------- helpers: glslang diagnostics --- */

struct Source {
    const char *name;
    const char *text;
    size_t len;
};

/* Splits "file:LINE: rest" into its parts. glslang prints the location as the string's name
 * and a 1-based line; names never contain ": " followed by digits and ": ", so the first
 * such match is the location. */
bool split_location(const std::string &body, std::string &file, unsigned long &line,
                    std::string &rest)
{
    for (size_t colon = body.find(':'); colon != std::string::npos;
         colon = body.find(':', colon + 1)) {
        size_t d = colon + 1;
        while (d < body.size() && body[d] >= '0' && body[d] <= '9')
            ++d;
        if (d == colon + 1 || d >= body.size() || body[d] != ':')
            continue;
        file = body.substr(0, colon);
        line = std::strtoul(body.c_str() + colon + 1, nullptr, 10);
        rest = body.substr(d + 1);
        if (!rest.empty() && rest[0] == ' ')
            rest.erase(0, 1);
        return true;
    }
    return false;
}

/* glslang closes its log with "N compilation errors.  No code generated." (and, after an
 * error, "'' : compilation terminated"); they repeat what the per-error lines say. */
bool is_summary(const std::string &body)
{
    static const char *const noise[] = {"compilation errors.", "No code generated.",
                                        "'' : compilation terminated"};
    for (const char *n : noise)
        if (body.find(n) != std::string::npos)
            return true;
    return false;
}

/* Rewrites one glslang info log (compile or link) into `out`; warnings and notes are
 * dropped because the generator's output is expected to be warning-clean only where it
 * matters, and they would drown the errors. */
void rewrite_glslang_log(const char *info, const Source &src, std::string &out)
{
    std::istringstream in(info ? info : "");
    std::string line;
    static const char *const error_prefixes[] = {"ERROR: ", "INTERNAL ERROR: ",
                                                 "UNIMPLEMENTED: "};
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const char *prefix = nullptr;
        for (const char *p : error_prefixes)
            if (starts_with(line, p)) {
                prefix = p;
                break;
            }
        if (!prefix)
            continue; /* WARNING:, NOTE:, blank lines, stage banners */
        std::string body = line.substr(std::strlen(prefix));
        while (!body.empty() && (body.back() == ' ' || body.back() == '\t'))
            body.pop_back();
        if (is_summary(body))
            continue;
        std::string file, rest;
        unsigned long lineno = 0;
        if (split_location(body, file, lineno, rest)) {
            out += file + ":" + std::to_string(lineno) + ": error: " + rest + "\n";
            std::string text;
            if (file == src.name && source_line(src.text, src.len, lineno, text))
                out += "    " + std::to_string(lineno) + " | " + text + "\n";
        } else {
            /* No location (e.g. "Linking compute stage: Missing entry point"). */
            out += std::string(src.name) + ": error: " + body + "\n";
        }
    }
}

/* A failed stage whose log held nothing we keep still has to say something. */
void ensure_message(std::string &log, const Source &src, const char *what)
{
    if (log.empty())
        log = std::string(src.name) + ": error: " + what + "\n";
}

/* ------------------------------------------------------------ helpers: configuration --- */

struct Target {
    glslang::EShTargetClientVersion client;
    glslang::EShTargetLanguageVersion spirv;
    spv_target_env tools_env;
};

Target target_for(sv_env env)
{
    switch (env) {
    case SV_ENV_VULKAN_1_2:
        return {glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5, SPV_ENV_VULKAN_1_2};
    case SV_ENV_VULKAN_1_3:
        return {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6, SPV_ENV_VULKAN_1_3};
    case SV_ENV_VULKAN_1_1:
    default:
        return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3, SPV_ENV_VULKAN_1_1};
    }
}

/* glslang keeps process-wide tables; initialise them once and release them at exit so
 * leak checkers see a clean process. */
void init_glslang()
{
    static bool done = false;
    if (!done) {
        glslang::InitializeProcess();
        std::atexit([] { glslang::FinalizeProcess(); });
        done = true;
    }
}

/* ------------------------------------------------------------------ compile/validate --- */

/* Parses, links and translates `src`; on failure fills `log` and returns false. */
bool compile_to_spirv(sv_lang lang, const Target &t, const Source &src,
                      std::vector<unsigned int> &spirv, std::string &logger_text,
                      std::string &log)
{
    const bool hlsl = lang == SV_LANG_HLSL;
    EShMessages messages = static_cast<EShMessages>(
        EShMsgSpvRules | EShMsgVulkanRules |
        /* 16-bit types: `half` is fp16 (--half), as DXC's -enable-16bit-types makes it;
         * without the flag glslang reads half as float. No other emitted HLSL names half. */
        (hlsl ? (EShMsgReadHlsl | EShMsgHlslOffsets | EShMsgHlslEnable16BitTypes) : 0));

    glslang::TShader shader(EShLangCompute);
    const char *text = src.text;
    const int len = static_cast<int>(src.len);
    const char *name = src.name;
    shader.setStringsWithLengthsAndNames(&text, &len, &name, 1);
    shader.setEntryPoint("main");
    shader.setEnvInput(hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl, EShLangCompute,
                       glslang::EShClientVulkan, 100);
    shader.setEnvClient(glslang::EShClientVulkan, t.client);
    shader.setEnvTarget(glslang::EShTargetSpv, t.spirv);
    if (hlsl) {
        /* Without the source entry point glslang 12 looks for nothing and emits an empty
         * module; typed UAVs are write-only here, so Unknown format avoids needing a
         * [[vk::image_format]] on each. Bindings come from register(); setHlslIoMapping
         * would only matter with TProgram::mapIO, which we do not call. */
        shader.setSourceEntryPoint("main");
        shader.setNoStorageFormat(true);
        /* No setEnvTargetHlslFunctionality1(): its reflection decorations need the
         * VK_GOOGLE_hlsl_functionality1 device extension, which the runtime does not enable
         * (the validation layer reports VUID-VkShaderModuleCreateInfo-pCode-04147). */
    }

    if (!shader.parse(GetDefaultResources(), 100, false, messages)) {
        rewrite_glslang_log(shader.getInfoLog(), src, log);
        ensure_message(log, src, "compilation failed");
        return false;
    }

    /* The program must outlive the intermediate that GlslangToSpv reads. */
    glslang::TProgram program;
    program.addShader(&shader);
    if (!program.link(messages)) {
        rewrite_glslang_log(program.getInfoLog(), src, log);
        ensure_message(log, src, "link failed");
        return false;
    }
    /* glslang 12 only warns when the HLSL entry point is missing and then emits an empty
     * "main" with LocalSize 1 1 1; that must not pass as a compiled shader. */
    const char *link_log = program.getInfoLog();
    if (link_log && std::strstr(link_log, "Entry point not found")) {
        log = std::string(src.name) + ": error: entry point \"main\" not found\n";
        return false;
    }
    const glslang::TIntermediate *ir = program.getIntermediate(EShLangCompute);
    if (!ir) {
        ensure_message(log, src, "no compute stage after linking");
        return false;
    }

    /* HLSL needs spirv-opt's legalization (e.g. resource arrays indexed through locals);
     * GlslangToSpv runs it for HLSL only when the optimizer is enabled. */
    glslang::SpvOptions options;
    options.disableOptimizer = false;
    options.optimizeSize = false;
    options.validate = false; /* we run the validator ourselves, with the right env */
    spv::SpvBuildLogger logger;
    glslang::GlslangToSpv(*ir, spirv, &logger, &options);
    logger_text = logger.getAllMessages();
    if (spirv.size() < 5) {
        log = std::string(src.name) + ": error: SPIR-V generation produced no module\n";
        if (!logger_text.empty())
            log += logger_text;
        return false;
    }
    return true;
}

/* Runs spirv-val for the target environment; on failure fills `log`. */
bool validate_spirv(const Target &t, const Source &src, const std::vector<unsigned int> &spirv,
                    const std::string &logger_text, std::string &log)
{
    spvtools::SpirvTools tools(t.tools_env);
    std::string messages;
    tools.SetMessageConsumer([&](spv_message_level_t level, const char *, const spv_position_t &,
                                 const char *msg) {
        if (level > SPV_MSG_ERROR)
            return; /* warnings and infos do not fail the module */
        messages += std::string(src.name) + ": error: SPIR-V validation: " + (msg ? msg : "") +
                    "\n";
    });
    spvtools::ValidatorOptions vopts;
    if (tools.Validate(spirv.data(), spirv.size(), vopts))
        return true;
    log = messages;
    ensure_message(log, src, "SPIR-V validation failed");
    /* glslang's own builder/legalizer notes often explain a validation failure. */
    if (!logger_text.empty())
        log += logger_text;
    return false;
}

/* The stamp as OpModuleProcessed (SPIR-V 1.1+), after the module's other debug
 * instructions: the first instruction that is neither preamble nor debug marks the spot. */
void insert_stamp(std::vector<unsigned int> &spirv, const char *stamp)
{
    static const uint32_t before_debug_end[] = {17, 10, 11, 14, 15, 16, 331, /* preamble */
                                                2, 3, 4, 5, 6, 7, 330};      /* debug */
    size_t at = 5;
    while (at < spirv.size()) {
        const uint32_t wc = spirv[at] >> 16, op = spirv[at] & 0xffffu;
        bool early = false;
        for (uint32_t code : before_debug_end)
            early |= op == code;
        if (!early || wc == 0)
            break;
        at += wc;
    }
    std::string text(stamp);
    std::vector<unsigned int> inst(1 + text.size() / 4 + 1, 0u);
    for (size_t i = 0; i < text.size(); ++i)
        inst[1 + i / 4] |= static_cast<uint32_t>(static_cast<unsigned char>(text[i])) << (8 * (i % 4));
    inst[0] = static_cast<uint32_t>(inst.size() << 16) | 330u; /* OpModuleProcessed */
    spirv.insert(spirv.begin() + static_cast<std::ptrdiff_t>(at), inst.begin(), inst.end());
}

int compile(sv_lang lang, sv_env env, const char *name, const char *source, size_t len,
            const char *stamp, sv_spirv *out, char **log)
{
    const Source src{name ? name : "<source>", source, len};
    if (!source || !out)
        return fail(log, std::string(src.name) + ": error: no source or output given\n");
    if (len > static_cast<size_t>(INT_MAX))
        return fail(log, std::string(src.name) + ": error: source too large\n");
    if (lang == SV_LANG_HLSL && env != SV_ENV_VULKAN_1_1)
        /* glslang 12 emits BufferBlock for HLSL at vulkan1.2+, which spirv-val rejects. */
        return fail(log, std::string(src.name) +
                             ": error: HLSL through glslang 12 supports only --target-env "
                             "vulkan1.1\n");

    init_glslang();
    const Target t = target_for(env);
    std::vector<unsigned int> spirv;
    std::string logger_text, msg;
    if (!compile_to_spirv(lang, t, src, spirv, logger_text, msg))
        return fail(log, msg);
    if (stamp && *stamp)
        insert_stamp(spirv, stamp);
    if (!validate_spirv(t, src, spirv, logger_text, msg))
        return fail(log, msg);

    uint32_t *words = static_cast<uint32_t *>(std::malloc(spirv.size() * sizeof(uint32_t)));
    if (!words)
        return fail(log, std::string(src.name) + ": error: out of memory\n");
    std::memcpy(words, spirv.data(), spirv.size() * sizeof(uint32_t));
    out->words = words;
    out->count = spirv.size();
    return 0;
}

/* -------------------------------------------------------------------- entry checking --- */

enum : uint32_t {
    kMagic = 0x07230203u,
    kOpEntryPoint = 15,
    kOpExecutionMode = 16,
    kOpConstant = 43,
    kOpExecutionModeId = 331,
    kModelGLCompute = 5,
    kModeLocalSize = 17,
    kModeLocalSizeId = 38,
};

/* Decodes a SPIR-V literal string from words [first, end); stops at NUL or at `end`. */
std::string literal_string(const uint32_t *w, size_t first, size_t end)
{
    std::string s;
    for (size_t i = first; i < end; ++i)
        for (int b = 0; b < 4; ++b) {
            char c = static_cast<char>((w[i] >> (8 * b)) & 0xffu);
            if (c == '\0')
                return s;
            s += c;
        }
    return s;
}

struct EntryScan {
    std::vector<std::string> names; /* every entry point, for the "not found" message */
    bool found = false;
    uint32_t id = 0;
    bool has_size = false, size_is_id = false;
    uint32_t size[3] = {0, 0, 0}; /* literals, or constant ids when size_is_id */
    std::vector<std::pair<uint32_t, uint32_t>> constants; /* 32-bit OpConstant id -> value */
};

void scan_instruction(const uint32_t *w, uint32_t wc, uint32_t op, const char *entry,
                      EntryScan &scan)
{
    if (op == kOpEntryPoint && wc >= 4) {
        std::string name = literal_string(w, 3, wc);
        if (!scan.found && w[1] == kModelGLCompute && name == entry) {
            scan.found = true;
            scan.id = w[2];
        }
        scan.names.push_back(std::move(name));
    } else if (op == kOpConstant && wc == 4) {
        scan.constants.emplace_back(w[2], w[3]);
    } else if (scan.found && wc >= 6 && w[1] == scan.id &&
               ((op == kOpExecutionMode && w[2] == kModeLocalSize) ||
                (op == kOpExecutionModeId && w[2] == kModeLocalSizeId))) {
        scan.has_size = true;
        scan.size_is_id = op == kOpExecutionModeId;
        for (int k = 0; k < 3; ++k)
            scan.size[k] = w[3 + k];
    }
}

/* Walks the instruction stream; returns an error message, or "" if the stream is sound. */
std::string scan_module(const uint32_t *w, size_t count, const char *entry, EntryScan &scan)
{
    if (count < 5 || w[0] != kMagic)
        return "not a SPIR-V module (bad header)";
    for (size_t i = 5; i < count;) {
        const uint32_t wc = w[i] >> 16, op = w[i] & 0xffffu;
        if (wc == 0 || wc > count - i)
            return "malformed SPIR-V: bad instruction length at word " + std::to_string(i);
        scan_instruction(w + i, wc, op, entry, scan);
        i += wc;
    }
    return "";
}

/* SPIR-V 1.6 output from glslang 12 states even a literal local_size as LocalSizeId over
 * plain OpConstants; those are as fixed as literals. Specialization constants are not:
 * the size would then depend on the pipeline, so they count as a mismatch. */
bool resolve_size_ids(EntryScan &scan)
{
    for (uint32_t &v : scan.size) {
        bool known = false;
        for (const auto &c : scan.constants)
            if (c.first == v) {
                v = c.second;
                known = true;
                break;
            }
        if (!known)
            return false;
    }
    scan.size_is_id = false;
    return true;
}

std::string quoted_list(const std::vector<std::string> &names)
{
    if (names.empty())
        return "none";
    std::string s;
    for (size_t i = 0; i < names.size(); ++i)
        s += (i ? ", \"" : "\"") + names[i] + "\"";
    return s;
}

int check_entry(const sv_spirv *module, const char *entry, uint32_t x, uint32_t y, uint32_t z,
                char **log)
{
    if (!module || !module->words || !entry)
        return fail(log, "no SPIR-V module or entry point name given");
    const std::string want =
        std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(z);
    EntryScan scan;
    std::string err = scan_module(module->words, module->count, entry, scan);
    if (!err.empty())
        return fail(log, err);
    if (!scan.found)
        return fail(log, std::string("SPIR-V entry point \"") + entry +
                             "\" not found (found: " + quoted_list(scan.names) + ")");
    if (!scan.has_size)
        return fail(log, std::string("SPIR-V entry point \"") + entry +
                             "\" has no LocalSize, expected " + want);
    if (scan.size_is_id && !resolve_size_ids(scan))
        return fail(log, "LocalSize is given by LocalSizeId with specialization constants "
                         "(not fixed), expected " + want);
    if (scan.size[0] != x || scan.size[1] != y || scan.size[2] != z)
        return fail(log, "LocalSize is " + std::to_string(scan.size[0]) + " " +
                             std::to_string(scan.size[1]) + " " +
                             std::to_string(scan.size[2]) + ", expected " + want);
    return 0;
}

} // namespace

/* ----------------------------------------------------------------------- C interface --- */

extern "C" int sv_compile(sv_lang lang, sv_env env, const char *name, const char *source,
                          size_t len, const char *stamp, sv_spirv *out, char **log)
{
    if (log)
        *log = nullptr;
    if (out) {
        out->words = nullptr;
        out->count = 0;
    }
    try {
        return compile(lang, env, name, source, len, stamp, out, log);
    } catch (...) {
        /* glslang/SPIRV-Tools may throw (bad_alloc at least); C callers cannot catch. */
        if (log) {
            std::free(*log);
            *log = dup_c(std::string(name ? name : "<source>") +
                         ": error: internal error in the shader compiler\n");
        }
        return 1;
    }
}

extern "C" int sv_check_entry(const sv_spirv *module, const char *entry, uint32_t x,
                              uint32_t y, uint32_t z, char **log)
{
    if (log)
        *log = nullptr;
    try {
        return check_entry(module, entry, x, y, z, log);
    } catch (...) {
        if (log) {
            std::free(*log);
            *log = dup_c("internal error while checking the SPIR-V entry point");
        }
        return 1;
    }
}

extern "C" void sv_free(sv_spirv *module)
{
    if (!module)
        return;
    std::free(module->words);
    module->words = nullptr;
    module->count = 0;
}
