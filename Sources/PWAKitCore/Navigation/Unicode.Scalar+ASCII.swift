extension Unicode.Scalar {
    /// `A`–`Z` or `a`–`z`.
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    /// `0`–`9`.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    /// `0`–`9`, `a`–`f`, `A`–`F`.
    var isASCIIHexDigit: Bool { isASCIIDigit || ("a"..."f").contains(self) || ("A"..."F").contains(self) }
}
