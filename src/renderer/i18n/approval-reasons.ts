import type { Language } from '../settings/settings-store.js';

/**
 * The approval detector's reasons in Chinese, keyed by the English text the engine sends. The reasons are stable
 * strings (core/safety/approvals/reasons.ts: "always" answers are stored by them), so the text is the key; the
 * renderer cannot import core, and test/renderer/approval-reasons.test.ts checks that every reason has a row. A
 * reason without one (a newer engine) shows in English rather than not at all.
 */
const ZH_CN: Readonly<Record<string, string>> = {
  'recursive delete of the root, home or a system directory': '递归删除根目录、主目录或系统目录',
  'recursive permission removal or owner change of the root, home or a system directory': '递归移除根目录、主目录或系统目录的权限或更改其所有者',
  'formats a filesystem': '格式化文件系统',
  'writes raw data to a disk device': '向磁盘设备写入原始数据',
  'fork bomb': 'fork 炸弹',
  'sends a message to a chat the agent has not written to before': '向智能体从未发过消息的聊天发送消息',
  'kills every process (kill -1)': '终止所有进程（kill -1）',
  'shuts down or reboots the machine': '关机或重启计算机',
  'recursive delete': '递归删除',
  'finds and deletes files': '查找并删除文件',
  'makes files world-writable': '使文件对所有人可写',
  'recursive permission or owner change on a system path': '递归更改系统路径的权限或所有者',
  'permission or owner change on a system path': '更改系统路径的权限或所有者',
  'sets the setuid or setgid bit': '设置 setuid 或 setgid 位',
  'pipes a download into a shell or interpreter': '将下载内容通过管道交给 shell 或解释器执行',
  'runs decoded (obfuscated) text as code': '将解码后的（混淆的）文本作为代码运行',
  'writes to a system or security-sensitive file (/etc, ~/.ssh, shell rc files)': '写入系统文件或安全敏感文件（/etc、~/.ssh、shell 配置文件）',
  'force-pushes git history': '强制推送 git 历史',
  'drops or truncates a database table or database': '删除或清空数据库表或数据库',
  'runs as root (sudo/doas)': '以 root 身份运行（sudo/doas）',
  'disables a security control (SELinux, AppArmor, firewall, ASLR)': '关闭安全机制（SELinux、AppArmor、防火墙、ASLR）',
  'sends secrets or credentials over the network': '通过网络发送密钥或凭据',
  'reads a private key or credentials file': '读取私钥或凭据文件',
  'opens a shell or raw connection to a remote host': '打开到远程主机的 shell 或原始连接',
  'removes or replaces the crontab': '删除或替换 crontab',
  'erases or disables shell history': '清除或关闭 shell 历史记录',
  'changes user accounts or passwords': '更改用户账户或密码',
  'runs a container with access to the host (privileged or the host root mounted)': '运行可访问宿主机的容器（特权模式或挂载了宿主机根目录）',
  'deletes cloud or cluster resources': '删除云端或集群资源',
  'runs a command whose name is only known when it runs': '运行一个名称在运行时才确定的命令',
  'nested or malformed beyond what the checker can read': '嵌套过深或格式有误，检查器无法读懂',
  "changes Hearth's own settings, persona (SOUL.md) or skills": '更改 Hearth 自身的设置、人设（SOUL.md）或技能',
  'schedules a job to run later': '安排稍后运行的任务',
  'destroys git history, branches or stashes that a checkpoint cannot restore': '破坏检查点无法恢复的 git 历史、分支或储藏',
  'deletes a remote git branch or tag': '删除远程 git 分支或标签',
  'discards uncommitted changes in the working tree': '丢弃工作区中未提交的更改',
  'kills processes broadly (by name, pattern or user, or pid 1)': '大范围终止进程（按名称、模式、用户，或 pid 1）',
  'stops, disables or unloads a system service': '停止、禁用或卸载系统服务',
  'destroys, detaches or repartitions a disk, volume or filesystem': '销毁、分离或重新分区磁盘、卷或文件系统',
  'removes installed packages outside the workspace': '移除工作区之外已安装的软件包',
  'deletes containers, images, volumes or networks': '删除容器、镜像、卷或网络',
  'runs a delete/destroy-style subcommand of a tool the checker has no rules for': '运行检查器没有规则的工具的删除/销毁类子命令',
  'runs shell commands from inline interpreter code': '在内联解释器代码中运行 shell 命令',
  'makes something run at every login or boot (launch agents, login items, enabled units, scheduled tasks)': '让程序在每次登录或启动时运行（启动代理、登录项、已启用的单元、计划任务）',
  'deletes or empties files outside the workspace': '删除或清空工作区之外的文件',
  'passes what would be a flagged command to a program the checker does not know': '把本应被标记的命令交给检查器不认识的程序',
  'runs, inside a new container, a command that would wreck the machine it ran on': '在新容器中运行一条若在本机运行会毁坏本机的命令',
  'gives a program file capabilities (setcap), root powers like a setuid bit': '赋予程序文件能力（setcap），即类似 setuid 位的 root 权限',
  'changes the owner or access rules of Windows files (icacls, takeown)': '更改 Windows 文件的所有者或访问规则（icacls、takeown）',
  'writes to a device whose name is only known when it runs (it may be a disk)': '写入一个名称在运行时才确定的设备（可能是磁盘）',
  'makes cloud storage or resources readable by anyone on the internet': '使云存储或资源对互联网上的任何人可读',
  "revokes an access token, key or someone's rights (a registry, a cloud account, a git host)": '吊销访问令牌、密钥或某人的权限（软件包仓库、云账号、git 托管平台）',
  'grants administrator rights in a cloud account or cluster (an admin policy, an owner role, a cluster-admin binding)': '在云账号或集群中授予管理员权限（管理员策略、所有者角色、cluster-admin 绑定）',
};

export function approvalReason(language: Language, reason: string): string {
  return language === 'zh-CN' ? (ZH_CN[reason] ?? reason) : reason;
}

/** The reasons with a translation, for the coverage test. */
export const TRANSLATED_REASONS: ReadonlySet<string> = new Set(Object.keys(ZH_CN));
