//! Data constructs and the executable directives outside compute constructs, lowered to
//! runtime calls: data regions (`data`, `declare`, `host_data`), `enter data`, `exit data`,
//! `update`, `wait`, `init`, `shutdown`, `set`, a host `atomic`; and the data tables
//! (`acc_rt_data`) that compute constructs share, with list items' extents and jagged rows.
//!
//! It must not know kernels (their arguments, bodies or CUDA forms).

use super::edit::one_statement_a_line;
use super::*;

/// One data clause item as the runtime takes it.
/// How a jagged array section is mapped (see `Lowerer::jagged`).
pub(super) struct JaggedRows {
    /// The address and size of the row pointers' section.
    pub(super) pointers: String,
    pub(super) pointer_bytes: String,
    /// The size of each row's section, and its text for messages.
    pub(super) row_bytes: String,
    pub(super) row_text: String,
    /// Where each row's section starts past the row's pointer, in bytes (`a[lo:n][k:m]`).
    pub(super) row_offset: String,
}

pub(super) struct DataEntry {
    pub(super) action: &'static str,
    pub(super) flags: String,
    pub(super) addr: String,
    pub(super) bytes: String,
    /// A C string literal.
    pub(super) text: String,
}

impl DataEntry {
    /// As an `acc_rt_data` initializer.
    pub(super) fn full(&self) -> String {
        format!(
            "{{{}, {}, (void *)({}), (size_t)({}), {}}}",
            self.action, self.flags, self.addr, self.bytes, self.text
        )
    }
}

/// Whether a list item without a subscript names a pointer: the variable itself (`p`), or a
/// pointer member of the struct it is (`s.x`) or points to (`s->x`).
pub(super) fn names_a_pointer(var: &acc_engine::facts::Var, item: Option<&VarItem>) -> bool {
    match item.map(|i| i.accessors.as_slice()) {
        None | Some([]) => var.shape == acc_engine::facts::Shape::Pointer,
        Some([Accessor::Member(m) | Accessor::Arrow(m)]) => var.has_pointer_member(&m.name),
        _ => false,
    }
}

impl<'a> Lowerer<'a> {
    /// `{ACTION, flags, host, bytes, "text"}` of a data item.
    pub(super) fn data_entry(&mut self, d: &DataItem) -> Option<DataEntry> {
        // A `const` object (not a pointer to one) is never written, on the host or on the
        // device (C makes that undefined): its `copy`, implicit or not, copies nothing back,
        // which could not be done anyway where it lies in read-only memory
        // (`static const float weights[] = {…}` read in a kernel).
        let read_only = {
            let v = self.unit.var(d.var);
            v.is_const && v.shape != acc_engine::facts::Shape::Pointer
        };
        let action = match d.action {
            Action::Copy if read_only => "ACC_RT_COPYIN",
            Action::Copy => "ACC_RT_COPY",
            Action::Copyin => "ACC_RT_COPYIN",
            Action::Copyout => "ACC_RT_COPYOUT",
            Action::Create => "ACC_RT_CREATE",
            Action::NoCreate => "ACC_RT_NO_CREATE",
            Action::Present => "ACC_RT_PRESENT",
            Action::Deviceptr => return None,
            Action::Attach => "ACC_RT_ATTACH",
            Action::Detach => "ACC_RT_DETACH",
            Action::Delete => "ACC_RT_DELETE",
            Action::UpdateSelf => "ACC_RT_UPDATE_SELF",
            Action::UpdateDevice => "ACC_RT_UPDATE_DEVICE",
        };
        let mut flags = Vec::new();
        if d.zero {
            flags.push("ACC_RT_ZERO");
        }
        if d.finalize {
            flags.push("ACC_RT_FINALIZE");
        }
        if d.if_present {
            flags.push("ACC_RT_IF_PRESENT");
        }
        if d.implicit {
            flags.push("ACC_RT_IMPLICIT");
        }
        // `present(p)` of a pointer, or of a struct's pointer member (`present(s.x)`), means
        // the data it points to, as nvc takes it (and as the programs written for nvc do).
        if d.action == Action::Present && names_a_pointer(self.unit.var(d.var), d.item.as_ref()) {
            flags.push("ACC_RT_POINTER_TARGET");
            if d.item.as_ref().is_some_and(|i| !i.accessors.is_empty()) {
                flags.push("ACC_RT_MEMBER_TARGET");
            }
        }
        let flags = if flags.is_empty() {
            "0".to_string()
        } else {
            flags.join(" | ")
        };
        let var = self.unit.var(d.var);
        let name = var.name.clone();
        // A parameter declared as an array (`int a[]`) is a pointer, whose size `sizeof(a)`
        // gives too, but with a warning from the C compiler about the user's line.
        let bytes = if var.shape == acc_engine::facts::Shape::Pointer {
            format!("sizeof(__typeof__({name}))")
        } else {
            format!("sizeof({name})")
        };
        let (addr, bytes, text) = match &d.item {
            None => (format!("&{name}"), bytes, name),
            Some(item) => {
                let (a, b) = self.item_extent(item, d.var)?;
                (a, b, item.text.clone())
            }
        };
        let (addr, bytes) = if matches!(d.action, Action::Attach | Action::Detach) {
            // The address of the pointer itself.
            (
                format!(
                    "&({})",
                    item_text(d.item.as_ref(), &self.unit.var(d.var).name)
                ),
                "sizeof(void *)".into(),
            )
        } else {
            (addr, bytes)
        };
        Some(DataEntry {
            action,
            flags,
            addr,
            bytes,
            text: c_string(&text),
        })
    }

    /// The start address and byte count of a list item.
    pub(super) fn item_extent(&mut self, item: &VarItem, var: VarId) -> Option<(String, String)> {
        let mut prefix = item.base.name.clone();
        let mut iter = item.accessors.iter().peekable();
        while let Some(a) = iter.peek() {
            match a {
                Accessor::Member(id) => write!(prefix, ".{}", id.name).ok()?,
                Accessor::Arrow(id) => write!(prefix, "->{}", id.name).ok()?,
                Accessor::Index(e) => {
                    let e = self.bound_value(e);
                    write!(prefix, "[{e}]").ok()?
                }
                Accessor::Section { .. } => break,
            }
            iter.next();
        }
        let Some(Accessor::Section {
            lower,
            length,
            span,
        }) = iter.next()
        else {
            return Some((format!("&({prefix})"), format!("sizeof({prefix})")));
        };
        // Sections after the first over a pointer's target step into separate allocations
        // (`a[0:n][0:m]` with `T **a`): the extent is the row pointers' (see `jagged`).
        if let Some(j) = self.jagged(item, var) {
            return j.map(|rows| (rows.pointers, rows.pointer_bytes));
        }
        // The data stays contiguous when the sections before the partial one take one row
        // each (`a[i:1][3:2]`, OpenACC 3.3 2.7.1) and the later ones cover whole rows: the
        // partial one's rows are then the extent's elements.
        let mut sections = vec![(lower, length, span)];
        for rest in iter {
            match rest {
                Accessor::Section {
                    lower,
                    length,
                    span,
                } => sections.push((lower, length, span)),
                _ => return self.not_contiguous(item),
            }
        }
        let one_row = |len: &Option<acc_engine::directive::Expr>| {
            len.as_ref().is_some_and(|l| l.int_value() == Some(1))
        };
        let partial = sections
            .iter()
            .position(|(_, len, _)| !one_row(len))
            .unwrap_or(sections.len() - 1);
        if sections[partial + 1..]
            .iter()
            .any(|(lo, _, _)| lo.as_ref().is_some_and(|l| l.int_value() != Some(0)))
        {
            return self.not_contiguous(item);
        }
        for (lo, _, _) in &sections[..partial] {
            let lo = lo.as_ref().map_or("0".to_string(), |l| self.bound_value(l));
            write!(prefix, "[{lo}]").ok()?;
        }
        let (lower, length, span) = sections[partial];
        let lo = lower
            .as_ref()
            .map_or("0".to_string(), |l| self.bound_value(l));
        let len = match length {
            // Evaluated once, in the data table (only the start is named again).
            Some(l) => format!("({})", l.text),
            None => {
                let shape = self.unit.var(var).shape;
                if shape == acc_engine::facts::Shape::Pointer || item.accessors.len() > 1 {
                    self.diags.push(Diagnostic::error(
                        *span,
                        format!(
                            "the length of `{}` is unknown; write it, as in `{}[lo:len]`",
                            item.text, prefix
                        ),
                    ));
                    return None;
                }
                format!("(sizeof({prefix}) / sizeof(({prefix})[0]) - {lo})")
            }
        };
        Some((
            format!("&({prefix})[{lo}]"),
            format!("{len} * sizeof(({prefix})[0])"),
        ))
    }

    fn not_contiguous(&mut self, item: &VarItem) -> Option<(String, String)> {
        self.diags.push(Diagnostic::error(
            item.span,
            format!(
                "`{}` is not contiguous; only one dimension of a subarray may be partial, those before it of length 1 and those after it whole",
                item.text
            ),
        ));
        None
    }

    pub(super) fn data_array(
        &mut self,
        data: &[DataItem],
        name: &str,
        exit_data: bool,
    ) -> (String, usize) {
        let entries = self.data_entries(data, exit_data);
        let bounds = self.take_bound_decls();
        if entries.is_empty() {
            return (format!("{bounds}const acc_rt_data *{name} = 0;"), 0);
        }
        let full: Vec<String> = entries.iter().map(DataEntry::full).collect();
        (
            format!(
                "{bounds}const acc_rt_data {name}[] = {{{}}};",
                full.join(", ")
            ),
            entries.len(),
        )
    }

    /// As [`Self::data_array`], in the compact form (`acc_rt_region_begin_v`):
    /// a static table `{name}i` and the values `{name}v`.
    pub(super) fn data_array_compact(&mut self, data: &[DataItem], name: &str) -> (String, usize) {
        let entries = self.data_entries(data, false);
        let bounds = self.take_bound_decls();
        if entries.is_empty() {
            return (
                format!("{bounds}const acc_rt_data_info *{name}i = 0; void *const *{name}v = 0;"),
                0,
            );
        }
        let info: Vec<String> = entries
            .iter()
            .map(|e| format!("{{{}, {}, {}}}", e.action, e.flags, e.text))
            .collect();
        let vals: Vec<String> = entries
            .iter()
            .map(|e| format!("(void *)({}), (void *)(size_t)({})", e.addr, e.bytes))
            .collect();
        (
            format!(
                "{bounds}static const acc_rt_data_info {name}i[] = {{{}}}; void *const {name}v[] = {{{}}};",
                info.join(", "),
                vals.join(", ")
            ),
            entries.len(),
        )
    }

    /// A section of a jagged array (`a[lo:n][0:m]` where `a` points to pointers, or is an
    /// array of them): `Some(Some(rows))` when acc maps it (the row pointers, each row, and
    /// the device's row pointers attached to the device's rows; the runtime expands an item
    /// flagged `ACC_RT_ROWS`), `Some(None)` when it cannot (said in a diagnostic), `None` when
    /// the item is no such section.
    pub(super) fn jagged(&mut self, item: &VarItem, var: VarId) -> Option<Option<JaggedRows>> {
        let sections: Vec<(
            Option<&acc_engine::directive::Expr>,
            Option<&acc_engine::directive::Expr>,
        )> = item
            .accessors
            .iter()
            .filter_map(|a| match a {
                Accessor::Section { lower, length, .. } => Some((lower.as_ref(), length.as_ref())),
                _ => None,
            })
            .collect();
        if sections.len() < 2 {
            return None;
        }
        let v = self.unit.var(var);
        let stars = v.decl_text[..v.decl_name.start].matches('*').count()
            + v.decl_text[v.decl_name.end..].matches('*').count();
        let levels = stars + usize::from(v.shape == acc_engine::facts::Shape::Array);
        if levels < 2 || stars == 0 {
            return None;
        }
        let name = item.base.name.clone();
        let fail = |this: &mut Self, why: &str| {
            this.diags.push(
                Diagnostic::error(
                    item.span,
                    format!(
                        "`{}` spans rows that are separate allocations (`{name}` points to pointers): {why}",
                        item.text
                    ),
                )
                .with_note(format!(
                    "map the row pointers and each row (`{name}[0:n]`, then `{name}[i][0:m]` for each i, with `enter data` in a loop), or keep the data in one allocation"
                )),
            );
            Some(None)
        };
        let plain = item.accessors.len() == 2 && sections.len() == 2;
        if !plain {
            return fail(
                self,
                "acc maps two levels, `a[lo:n][0:m]`, of a variable itself",
            );
        }
        let (lo1, len1) = sections[0];
        let (lo2, len2) = sections[1];
        let (Some(len1), Some(len2)) = (len1, len2) else {
            return fail(self, "give both lengths, as in `a[0:n][0:m]`");
        };
        let row_text = format!(
            "{name}[i][{}:{}]",
            lo2.map_or("0", |l| l.text.as_str()),
            len2.text
        );
        let lo1 = lo1.map_or("0".to_string(), |l| self.bound_value(l));
        let lo2 = lo2.map_or("0".to_string(), |l| self.bound_value(l));
        Some(Some(JaggedRows {
            pointers: format!("&({name})[{lo1}]"),
            pointer_bytes: format!("({}) * sizeof(({name})[0])", len1.text),
            row_bytes: format!("({}) * sizeof(({name})[0][0])", len2.text),
            row_text,
            row_offset: format!("(size_t){lo2} * sizeof(({name})[0][0])"),
        }))
    }

    /// `exit_data`: the items of `exit data`, whose `copyout` and `delete` leave (on a
    /// structured construct, `copyout` enters too, and leaves in reverse at its end).
    pub(super) fn data_entries(&mut self, data: &[DataItem], exit_data: bool) -> Vec<DataEntry> {
        let mut entries: Vec<DataEntry> = Vec::new();
        for d in data {
            let Some(mut entry) = self.data_entry(d) else {
                continue;
            };
            let rows = d
                .item
                .as_ref()
                .and_then(|i| self.jagged(i, d.var))
                .flatten();
            if let Some(rows) = rows {
                // The row pointers, then the rows' descriptor: each row's bytes, and where its
                // section starts past the row's pointer.
                entry.flags = if entry.flags == "0" {
                    "ACC_RT_ROWS".into()
                } else {
                    format!("{} | ACC_RT_ROWS", entry.flags)
                };
                let row = DataEntry {
                    action: entry.action,
                    flags: "0".into(),
                    addr: rows.row_offset,
                    bytes: rows.row_bytes,
                    text: c_string(&rows.row_text),
                };
                entries.push(entry);
                entries.push(row);
                continue;
            }
            // A section of a struct's pointer member (`s.p[0:n]`) or of a pointer that is an
            // array's element (`rows[i][0:n]`) also attaches the pointer's device copy to it,
            // when the pointer is on the device (OpenACC 3.3 2.7.2, 2.6.8); leaving detaches
            // it first. Whether that member or element is a pointer, not an array, the C
            // compiler decides (an array does not decay in `__typeof__`, it does in `?:`).
            // A `declare`d global pointer (`declare create(gp)`, then `copyin(gp[0:n])`) is on
            // the device too, where routines read it: attached the same way.
            let var = self.unit.var(d.var);
            let global_pointer = (var.is_global && var.shape == acc_engine::facts::Shape::Pointer)
                .then_some(d.item.as_ref())
                .flatten()
                .filter(|i| matches!(i.accessors.first(), Some(Accessor::Section { .. })))
                .map(|_| var.name.clone());
            let finalize = if d.finalize { " | ACC_RT_FINALIZE" } else { "" };
            let section_start = entry.addr.clone();
            let attach = d
                .item
                .as_ref()
                .and_then(|i| section_base_pointer(self, i))
                .or(global_pointer)
                .map(|p| {
                    // The section may start past the pointer's target (`s.x[10:20]`): the
                    // device pointer is then the section's device address less that offset,
                    // as the host's points that far before the section.
                    let entry = |action, flags: String, bytes: String| DataEntry {
                        action,
                        flags,
                        addr: format!(
                            "(__builtin_types_compatible_p(__typeof__({p}), __typeof__(1 ? ({p}) : ({p}))) ? (void *)&({p}) : (void *)0)"
                        ),
                        bytes,
                        text: c_string(&p),
                    };
                    (
                        entry(
                            "ACC_RT_ATTACH",
                            "ACC_RT_IF_PRESENT | ACC_RT_SECTION_OFFSET".into(),
                            format!("(size_t)((char *)({section_start}) - (char *)({p}))"),
                        ),
                        entry(
                            "ACC_RT_DETACH",
                            format!("ACC_RT_IF_PRESENT{finalize}"),
                            "sizeof(void *)".into(),
                        ),
                    )
                });
            match (attach, d.action) {
                (Some((_, det)), Action::Copyout | Action::Delete) if exit_data => {
                    entries.push(det);
                    entries.push(entry);
                }
                (
                    Some((att, _)),
                    Action::Copy
                    | Action::Copyin
                    | Action::Copyout
                    | Action::Create
                    | Action::Present
                    | Action::NoCreate,
                ) => {
                    entries.push(entry);
                    entries.push(att);
                }
                _ => entries.push(entry),
            }
        }
        entries
    }

    pub(super) fn region(&mut self, id: ConstructId, data: &[DataItem]) {
        let c = self.unit.construct(id);
        let line = self.line(c.pragma_span);
        let n = self.fresh();
        if c.directive.kind == DirectiveKind::HostData {
            self.host_data(id);
            return;
        }
        let (array, count) = self.data_array(data, &format!("__acc_d{n}"), false);
        let cond = self.condition(id).unwrap_or_else(|| "1".into());
        let is_declare = c.directive.kind == DirectiveKind::Declare;
        let asy = self.async_arg(id);
        let wait = self.wait_clause(id, line);
        let checks = if is_declare {
            String::new()
        } else {
            self.clause_checks(id)
        };
        let open = format!(
            "{}{checks} {wait}{array} struct __acc_region __acc_r{n} __attribute__((cleanup(__acc_region_end))) = {{{}, {line}, __acc_d{n}, {count}, {asy}, {cond}}}; if (__acc_r{n}.__acc_active) acc_rt_region_begin({}, {line}, __acc_d{n}, {count}, {asy});",
            if is_declare { "" } else { "{" },
            self.file_at(c.pragma_span),
            self.file_at(c.pragma_span)
        );
        let indent = self.indent_of(c.pragma_span);
        self.replace(c.pragma_span, one_statement_a_line(&open, &indent));
        if !is_declare {
            if let Some(body) = c.body {
                // A statement may end in a preprocessor line (its closing brace inside an
                // `#ifdef … #endif`): the region's brace then needs a line of its own.
                let line_start = self.src[..body.end].rfind('\n').map_or(0, |i| i + 1);
                let close = if self.src[line_start..body.end].trim_start().starts_with('#') {
                    "\n}"
                } else {
                    " }"
                };
                self.insert(
                    body.end,
                    close.into(),
                    -(self.unit.ancestors(id).count() as i64),
                );
            }
        }
    }

    pub(super) fn host_data(&mut self, id: ConstructId) {
        let c = self.unit.construct(id);
        let line = self.line(c.pragma_span);
        let if_present = c.directive.has(ClauseKind::IfPresent) as i32;
        let cond = self.condition(id).unwrap_or_else(|| "1".into());
        let mut open = String::from("{ ");
        let mut inner = String::from("{ ");
        for (ci, clause) in c.directive.clauses.iter().enumerate() {
            if clause.kind != ClauseKind::UseDevice {
                continue;
            }
            for (ii, item) in acc_engine::attrs::clause_items(&clause.args)
                .iter()
                .enumerate()
            {
                let Some(Some(v)) = c.clause_vars.get(ci).and_then(|x| x.get(ii)) else {
                    continue;
                };
                let var = self.unit.var(*v);
                let array = var.shape == acc_engine::facts::Shape::Array;
                if var.shape != acc_engine::facts::Shape::Pointer && !array {
                    self.diags.push(Diagnostic::error(
                        item.span,
                        format!("`use_device({})` of a scalar or struct is not supported yet; use a pointer to its data", item.text),
                    ));
                    continue;
                }
                let n = self.fresh();
                // `if(false)`: the host address, unchanged.
                let _ = write!(
                    open,
                    "void *__acc_ud{n} = ({cond}) ? acc_rt_use_device({}, {line}, (void *)({}), {}, {if_present}) : (void *)({}); ",
                    self.file_at(c.pragma_span),
                    var.name,
                    c_string(&item.text),
                    var.name
                );
                if array {
                    // Inside the construct the array's name is its device copy's address
                    // (OpenACC 3.3 2.8.1): a pointer to its first element, which indexes and
                    // decays as the array does (`sizeof` gives the pointer's size there).
                    let name = &var.name;
                    let _ = write!(
                        inner,
                        "__typeof__(&({name})[0]) {name} = (__typeof__(&({name})[0]))__acc_ud{n}; "
                    );
                    continue;
                }
                let _ = write!(
                    inner,
                    "{} = ({})__acc_ud{n}; ",
                    declare_as(self.unit, *v, &var.name),
                    declare_as(self.unit, *v, "")
                );
            }
        }
        self.replace(c.pragma_span, format!("{open}{inner}"));
        if let Some(body) = c.body {
            self.insert(
                body.end,
                " } }".into(),
                -(self.unit.ancestors(id).count() as i64),
            );
        }
    }

    pub(super) fn dynamic(&mut self, id: ConstructId, kind: EffKind, data: &[DataItem]) {
        let c = self.unit.construct(id);
        let line = self.line(c.pragma_span);
        let n = self.fresh();
        let (array, count) =
            self.data_array(data, &format!("__acc_d{n}"), kind == EffKind::ExitData);
        let asy = self.async_arg(id);
        let wait = self.wait_clause(id, line);
        let call = match kind {
            EffKind::EnterData => "acc_rt_enter_data",
            EffKind::ExitData => "acc_rt_exit_data",
            EffKind::Update => "acc_rt_update",
            _ => {
                // File-scope `declare`: the data lives as long as the
                // program, entered before `main` runs. A variable the file's routines use is
                // named to the runtime too, for their library's pointer to it.
                let mut library_globals = String::new();
                for d in data {
                    let name = &self.unit.var(d.var).name;
                    if self.library_globals.contains(name) {
                        let _ = write!(
                            library_globals,
                            " acc_rt_register_library_global({}, \"{}{name}\", (void *)&({name}));",
                            c_string(self.lines.main_file()),
                            self.library_pointers
                        );
                    }
                }
                let text = format!(
                    "__attribute__((constructor)) static void __acc_declare{n}(void) {{ {array} acc_rt_enter_data({}, {line}, __acc_d{n}, {count}, acc_async_sync);{library_globals} }}",
                    self.file_at(c.pragma_span)
                );
                let indent = self.indent_of(c.pragma_span);
                self.replace(c.pragma_span, one_statement_a_line(&text, &indent));
                return;
            }
        };
        let body = format!(
            "{}{wait}{array} {call}({}, {line}, __acc_d{n}, {count}, {asy});",
            self.clause_checks(id),
            self.file_at(c.pragma_span)
        );
        let text = match self.condition(id) {
            Some(cond) => format!("if ({cond}) {{ {body} }}"),
            None => format!("{{ {body} }}"),
        };
        let indent = self.indent_of(c.pragma_span);
        self.replace(c.pragma_span, one_statement_a_line(&text, &indent));
    }

    pub(super) fn other(&mut self, id: ConstructId) {
        let c = self.unit.construct(id);
        let line = self.line(c.pragma_span);
        let d = &c.directive;
        let text = match d.kind {
            DirectiveKind::Wait => {
                let asy = self.async_arg(id);
                match &d.arg {
                    Some(acc_engine::directive::DirectiveArg::Wait(w)) if !w.queues.is_empty() => {
                        let qs: Vec<&str> = w.queues.iter().map(|q| q.text.as_str()).collect();
                        format!(
                            "{{ const int __acc_q[] = {{{}}}; acc_rt_wait({}, {line}, __acc_q, {}, {asy}); }}",
                            qs.join(", "),
                            self.file_at(c.pragma_span),
                            qs.len()
                        )
                    }
                    _ => format!(
                        "acc_rt_wait({}, {line}, 0, 0, {asy});",
                        self.file_at(c.pragma_span)
                    ),
                }
            }
            DirectiveKind::Init | DirectiveKind::Shutdown => {
                let f = if d.kind == DirectiveKind::Init {
                    "acc_init"
                } else {
                    "acc_shutdown"
                };
                format!("{f}({});", self.device_type(id))
            }
            DirectiveKind::Set => {
                let mut s = String::new();
                if let Some(n) = self.clause_expr(id, ClauseKind::DeviceNum) {
                    let _ = write!(s, "acc_set_device_num(({n}), {});", self.device_type(id));
                } else if d.has(ClauseKind::DeviceType) {
                    let _ = write!(s, "acc_set_device_type({});", self.device_type(id));
                }
                if let Some(q) = self.clause_expr(id, ClauseKind::DefaultAsync) {
                    let _ = write!(s, " acc_set_default_async({q});");
                }
                s
            }
            DirectiveKind::Atomic => {
                // Outside a kernel only the host runs it, but other host
                // threads may too.
                if let Some(body) = c.body {
                    self.insert(body.end, " acc_rt_atomic_end(); }".into(), 0);
                }
                "{ acc_rt_atomic_begin();".into()
            }
            DirectiveKind::Loop => {
                // An orphaned loop (in a `routine`): on the CPU devices it
                // runs inside its caller's chunk, sequentially.
                String::new()
            }
            _ => String::new(),
        };
        // `init`, `shutdown` and `set` take an `if` clause.
        let text = match self.condition(id) {
            Some(cond)
                if matches!(
                    d.kind,
                    DirectiveKind::Init | DirectiveKind::Shutdown | DirectiveKind::Set
                ) =>
            {
                format!("if ({cond}) {{ {text} }}")
            }
            _ if d.kind == DirectiveKind::Wait => match self.clause_checks(id) {
                checks if checks.is_empty() => text,
                checks => format!("{{{checks}{text} }}"),
            },
            _ => text,
        };
        self.replace(c.pragma_span, text);
    }
}

/// The member or element that holds the base of a list item's section (`s.p` of `s.p[0:n]`,
/// `rows[i]` of `rows[i][0:n]`): a pointer, which the section's device copy is attached to,
/// unless the C compiler finds it an array (see `data_entries`).
/// Its subscripts are the construct's values (see `bounds`).
fn section_base_pointer(lw: &mut Lowerer, item: &VarItem) -> Option<String> {
    let section = item
        .accessors
        .iter()
        .position(|a| matches!(a, Accessor::Section { .. }))?;
    if section == 0
        || !matches!(
            item.accessors[section - 1],
            Accessor::Member(_) | Accessor::Arrow(_) | Accessor::Index(_)
        )
    {
        return None;
    }
    let mut text = item.base.name.clone();
    for a in &item.accessors[..section] {
        match a {
            Accessor::Member(id) => text = format!("{text}.{}", id.name),
            Accessor::Arrow(id) => text = format!("{text}->{}", id.name),
            Accessor::Index(e) => text = format!("{text}[{}]", lw.bound_value(e)),
            Accessor::Section { .. } => {}
        }
    }
    Some(text)
}

pub(super) fn item_text(item: Option<&VarItem>, name: &str) -> String {
    item.map_or_else(|| name.to_string(), |i| i.text.clone())
}
