// The little XML S3 answers with, read without an XML library: the text of
// the first <Tag>, each <Tag>…</Tag> block, entities decoded.
#pragma once

#include <string>
#include <vector>

namespace savepoint {

std::string xml_value(const std::string& xml, const std::string& tag);
std::vector<std::string> xml_blocks(const std::string& xml, const std::string& tag);
std::string unquote_etag(const std::string& raw);  // trims spaces and the quotes S3 puts round it

}  // namespace savepoint
