/// A unified diff of two texts by lines (`diff -u` style), for showing what a sync changes.
public enum LineDiff {
    /// The most cells (lines before × lines after) compared line by line; larger texts are shown
    /// as every old line removed and every new line added.
    static let maximumCells = 4_000_000

    /// The unified diff of `before` (nil: a new file) and `after`, headed `--- a/<path>`,
    /// `+++ b/<path>`, with `context` unchanged lines around each change; empty when equal.
    public static func unified(before: String?, after: String, path: String, context: Int = 3) -> String {
        let old = lines(before ?? "")
        let new = lines(after)
        if let before, old == new {
            return before == after ? "" : "--- a/\(path)\n+++ b/\(path)\n(only the line endings at the end differ)\n"
        }
        let edits = script(old, new)
        var output = ["--- \(before == nil ? "/dev/null" : "a/" + path)", "+++ b/\(path)"]
        var index = 0
        while index < edits.count {
            guard let firstChange = edits[index...].firstIndex(where: { $0.kind != .same }) else { break }
            var start = max(index, firstChange - context)
            if start < index { start = index }
            var end = firstChange
            // NB: extend the hunk while the next change is within two contexts of the last.
            while end < edits.count {
                guard let nextSame = edits[end...].firstIndex(where: { $0.kind == .same }) else {
                    end = edits.count
                    break
                }
                let nextChange = edits[nextSame...].firstIndex { $0.kind != .same }
                if let nextChange, nextChange - nextSame <= context * 2 {
                    end = nextChange
                } else {
                    end = min(edits.count, nextSame + context)
                    break
                }
            }
            let hunk = edits[start..<end]
            let oldStart = hunk.first?.oldLine ?? 0
            let newStart = hunk.first?.newLine ?? 0
            let oldCount = hunk.filter { $0.kind != .added }.count
            let newCount = hunk.filter { $0.kind != .removed }.count
            output.append(
                "@@ -\(oldCount == 0 ? oldStart : oldStart + 1),\(oldCount) +\(newCount == 0 ? newStart : newStart + 1),\(newCount) @@"
            )
            for edit in hunk {
                switch edit.kind {
                case .same: output.append(" " + edit.text)
                case .removed: output.append("-" + edit.text)
                case .added: output.append("+" + edit.text)
                }
            }
            index = end
        }
        return output.joined(separator: "\n") + "\n"
    }

    struct Edit: Equatable {
        enum Kind { case same, removed, added }
        var kind: Kind
        var text: String
        /// Lines of the old and new text before this one.
        var oldLine: Int
        var newLine: Int
    }

    static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }

    /// The edit script by longest common subsequence (removals before additions in each run).
    static func script(_ old: [String], _ new: [String]) -> [Edit] {
        var edits: [Edit] = []
        guard old.count * new.count <= maximumCells else {
            edits += old.enumerated().map { Edit(kind: .removed, text: $1, oldLine: $0, newLine: 0) }
            edits += new.enumerated().map { Edit(kind: .added, text: $1, oldLine: old.count, newLine: $0) }
            return edits
        }
        let width = new.count + 1
        var table = [Int32](repeating: 0, count: (old.count + 1) * width)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i * width + j] =
                    old[i] == new[j]
                    ? table[(i + 1) * width + j + 1] + 1 : max(table[(i + 1) * width + j], table[i * width + j + 1])
            }
        }
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                edits.append(Edit(kind: .same, text: old[i], oldLine: i, newLine: j))
                i += 1
                j += 1
            } else if j == new.count || (i < old.count && table[(i + 1) * width + j] >= table[i * width + j + 1]) {
                edits.append(Edit(kind: .removed, text: old[i], oldLine: i, newLine: j))
                i += 1
            } else {
                edits.append(Edit(kind: .added, text: new[j], oldLine: i, newLine: j))
                j += 1
            }
        }
        return edits
    }
}
