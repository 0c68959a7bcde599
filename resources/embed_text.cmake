# Writes OUT: the text of the file IN as `extern const std::string_view SYMBOL` in
# fusescope::resources::detail, a raw string literal.
file(READ ${IN} text)
file(WRITE ${OUT} "#include <string_view>\nnamespace fusescope::resources::detail {\nextern const std::string_view ${SYMBOL};\nconst std::string_view ${SYMBOL} = R\"FSRAW(${text})FSRAW\";\n}  // namespace fusescope::resources::detail\n")
