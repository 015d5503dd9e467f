#include "remote/s3_xml.h"

namespace savepoint {
namespace {

std::string decode_entities(const std::string& s) {
    static const std::pair<const char*, char> entities[] = {{"&quot;", '"'}, {"&#34;", '"'}, {"&amp;", '&'},
                                                            {"&lt;", '<'},   {"&gt;", '>'},  {"&apos;", '\''},
                                                            {"&#39;", '\''}};
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        bool done = false;
        if (s[i] == '&')
            for (const auto& [name, c] : entities)
                if (s.compare(i, std::char_traits<char>::length(name), name) == 0) {
                    out += c;
                    i += std::char_traits<char>::length(name);
                    done = true;
                    break;
                }
        if (!done) out += s[i++];
    }
    return out;
}

}  // namespace

std::string xml_value(const std::string& xml, const std::string& tag) {
    const std::string open = "<" + tag + ">", close = "</" + tag + ">";
    const auto a = xml.find(open);
    if (a == std::string::npos) return "";
    const auto b = xml.find(close, a + open.size());
    if (b == std::string::npos) return "";
    return decode_entities(xml.substr(a + open.size(), b - a - open.size()));
}

std::vector<std::string> xml_blocks(const std::string& xml, const std::string& tag) {
    std::vector<std::string> out;
    const std::string open = "<" + tag + ">", close = "</" + tag + ">";
    for (std::size_t at = 0;;) {
        const auto a = xml.find(open, at);
        if (a == std::string::npos) break;
        const auto b = xml.find(close, a);
        if (b == std::string::npos) break;
        out.push_back(xml.substr(a + open.size(), b - a - open.size()));
        at = b + close.size();
    }
    return out;
}

std::string unquote_etag(const std::string& raw) {
    std::string s;
    for (char c : raw)
        if (c != '"' && c != ' ' && c != '\r' && c != '\n' && c != '\t') s += c;
    return s;
}

}  // namespace savepoint
