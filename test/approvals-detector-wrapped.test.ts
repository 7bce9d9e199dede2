import { describe, expect, it } from 'vitest';
import { REASONS, classifyCommand, type DetectorContext } from '../src/core/safety/approvals/detector.js';

/**
 * Wrapped commands, broad kills, database statements and security switches: one test per defect class found on
 * the widened dev split. Each block names the class; the commands are shapes the rules got wrong before.
 */
const ctx: DetectorContext = { workspace: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev' };
const verdict = (command: string): string => classifyCommand(command, ctx).verdict;
const reasons = (command: string): string[] => classifyCommand(command, ctx).reasons;
const expectVerdicts = (cases: ReadonlyArray<readonly [string, string]>): void => {
  for (const [command, expected] of cases) expect([command, verdict(command)]).toEqual([command, expected]);
};

describe('wrappers', () => {
  it('a code option at the end of a short-flag cluster carries the code (`script -qc`, `su -lc`, `su -mc`)', () => {
    expectVerdicts([
      ["script -qc 'rm -rf /' /dev/null", 'hardline'],
      ["script -qc 'sudo setenforce 0' /dev/null", 'dangerous'],
      ["su -lc 'rm -rf ~'", 'hardline'],
      ['su -mc reboot', 'hardline'],
      ["script -qc 'npm test' /dev/null", 'safe'],
    ]);
  });

  it('runuser takes a user and -c like su, or a command after -u', () => {
    expectVerdicts([
      ["runuser -l root -c 'rm -rf /home'", 'hardline'],
      ['runuser -u root -- rm -rf /', 'hardline'],
      ['runuser --user=root -- reboot', 'hardline'],
    ]);
  });

  it('a wrapper that sets the directory moves relative paths there, for that command only', () => {
    expectVerdicts([
      ['env --chdir=/ rm -rf ./*', 'hardline'],
      ['env -C / rm -rf ./*', 'hardline'],
      ['sudo -D / rm -rf -- *', 'hardline'],
      ['nsenter -t 1 -a -w / rm -rf ./*', 'hardline'],
      ['env -C packages/web rm -rf dist', 'safe'],
      // The directory does not leak to the next command; a `cd` inside a wrapped shell still does.
      ['env -C / true; rm -rf ./build', 'safe'],
      ["sudo -- sh -c 'cd / && rm -rf *'", 'hardline'],
    ]);
  });

  it('GNU parallel runs its command line through a shell; bare ::: arguments are command lines', () => {
    expectVerdicts([
      ["parallel --jobs 2 'rm -rf {}' ::: ~", 'hardline'],
      ["parallel ::: 'rm -rf ~'", 'hardline'],
      ["parallel ::: 'docker volume prune -f' 'docker image prune -af'", 'dangerous'],
      ["parallel -j4 'convert {} {.}.png' ::: assets/*.svg", 'safe'],
      ['parallel gzip ::: build/*.log', 'safe'],
    ]);
  });

  it('an unknown long option may take the next word, so both readings are classified', () => {
    expectVerdicts([
      ['parallel --halt now,fail=1 rm -rf ::: /', 'hardline'],
      ['parallel --halt now,fail=1 -j2 npm run test -w ::: pkg-a pkg-b', 'safe'],
      ['timeout --preserve-status 10 rm -rf /', 'hardline'],
    ]);
  });

  it('sudo -k still runs its command (only -K, -l, -v, -e run none)', () => {
    expect(verdict('sudo -k rm -rf /')).toBe('hardline');
    expect(reasons('sudo -l')).toEqual([REASONS.sudo]);
  });

  it('wrappers the table lacked: user switchers, limits, loaders, shims, other systems', () => {
    expectVerdicts([
      ['gosu root rm -rf /', 'hardline'],
      ["gosu 0:0 sh -c 'rm -rf /'", 'hardline'],
      ['su-exec root reboot', 'hardline'],
      ["sg wheel -c 'rm -rf /'", 'hardline'],
      ['chpst -u root rm -rf ~', 'hardline'],
      ['setpriv --reuid=0 --regid=0 --clear-groups reboot', 'hardline'],
      ['numactl --cpunodebind=0 --membind=0 rm -rf /', 'hardline'],
      ['cpulimit -l 50 -- rm -rf ~', 'hardline'],
      ['prlimit --nproc=unlimited rm -rf /', 'hardline'],
      ['run0 rm -rf /', 'hardline'],
      ['systemd-inhibit --what=shutdown rm -rf /', 'hardline'],
      ["faketime -f '+1d' reboot", 'hardline'],
      ['arch -arm64 rm -rf /', 'hardline'],
      ['tini -- rm -rf /', 'hardline'],
      ['cross-env NODE_ENV=production rm -rf /', 'hardline'],
      ['aws-vault exec prod -- rm -rf ~', 'hardline'],
      ["sshpass -p hunter2 ssh root@localhost 'rm -rf /'", 'hardline'],
      ['wsl.exe -u root -- rm -rf /', 'hardline'],
      ["vagrant ssh -c 'ufw disable'", 'dangerous'],
      ['lxc exec web -- systemctl stop nginx', 'dangerous'],
      ['gosu node npm start', 'safe'],
      ['cpulimit -l 50 -- npm run build', 'safe'],
      ['numactl --hardware', 'safe'],
      ['wsl -l -v', 'safe'],
      ['cross-env NODE_ENV=test jest', 'safe'],
    ]);
  });

  it('namespaces, sudo front ends, agents, task queues, the dynamic loader and debuggers run their command', () => {
    expectVerdicts([
      ['ip netns exec blue rm -rf /', 'hardline'],
      ['cgexec -g cpu,memory:batch rm -rf ~', 'hardline'],
      ["kdesu -c 'reboot'", 'hardline'],
      ["ssh-agent bash -c 'rm -rf ~'", 'hardline'],
      ['pueue add -- rm -rf ~', 'hardline'],
      ['/lib64/ld-linux-x86-64.so.2 /bin/rm -rf /', 'hardline'],
      ['perf stat -e cycles rm -rf /', 'hardline'],
      ['gdb -batch -ex run --args rm -rf ~', 'hardline'],
      ['lxc-attach -n web -- systemctl stop nginx', 'dangerous'],
      ['ip netns exec blue ping -c1 10.0.0.1', 'safe'],
      ['ssh-agent -s', 'safe'],
      ['/lib64/ld-linux-x86-64.so.2 --list /bin/ls', 'safe'],
      ['perf stat -e cycles make', 'safe'],
      ['gdb ./build/app core', 'safe'],
    ]);
  });

  it('`bash -c --` and `eval --`: the code follows the `--`', () => {
    expectVerdicts([
      ["bash -c -- 'rm -rf /'", 'hardline'],
      ["eval -- 'rm -rf ~'", 'hardline'],
      ["bash -c -- 'echo hi'", 'safe'],
      ["eval -- 'echo hello'", 'safe'],
    ]);
  });

  it('a new container runs its command remotely; what would wreck this machine only asks there', () => {
    expectVerdicts([
      ["docker run --rm -i postgres:16 psql -h db -U app -c 'DROP TABLE users'", 'dangerous'],
      ['docker compose run --rm web rails db:drop', 'dangerous'],
      ["kubectl run psql --rm -i --image=postgres -- psql -h db -c 'DROP TABLE x'", 'dangerous'],
      ["docker run --entrypoint /bin/sh --rm alpine -c 'rm -rf /'", 'dangerous'],
      ['docker run -it --rm -v $PWD:/src -w /src node:20 npm test', 'safe'],
      ['docker run -d -p 80:80 nginx', 'safe'],
    ]);
    expect(reasons('docker run --rm alpine rm -rf /')).toEqual([REASONS.containedHardline]);
  });

  it('remote runners (ansible, salt, pdsh, clush, pssh, fly/gcloud ssh, az run-command, ssm) and multiplexers run their text', () => {
    expectVerdicts([
      ["ansible all -i hosts -b -m shell -a 'iptables -F'", 'dangerous'],
      ["salt '*' cmd.run 'ufw disable'", 'dangerous'],
      ["pdsh -w web[1-5] 'systemctl stop nginx'", 'dangerous'],
      ["clush -w node[1-4] 'rm -rf /scratch/*'", 'dangerous'],
      ["fly ssh console -C 'rm -rf /data'", 'dangerous'],
      ["gcloud compute ssh vm1 --command='sudo systemctl stop nginx'", 'dangerous'],
      ["az vm run-command invoke -g rg -n vm --command-id RunShellScript --scripts 'ufw disable'", 'dangerous'],
      ["aws ssm send-command --instance-ids i-0abc --document-name AWS-RunShellScript --parameters '{\"commands\":[\"systemctl stop nginx\"]}'", 'dangerous'],
      ["tmux new-session -d 'rm -rf ~'", 'hardline'],
      ["tmux new-window -c / 'rm -rf ./*'", 'hardline'],
      ['screen -dmS wipe rm -rf ~', 'hardline'],
      ['ansible all -m ping', 'safe'],
      ["salt '*' cmd.run 'uptime'", 'safe'],
      ["tmux new -d -s dev 'npm run dev'", 'safe'],
      ['tmux ls', 'safe'],
    ]);
    // screen keeps its own rule (`-X quit` ends a session) as well as running what it is given.
    expect(reasons('screen -S build -X quit')).toContain(REASONS.killProcesses);
  });

  it('a session started with no command (ssh, sudo -i, su -) or `ssh host bash -s` reads its stdin as commands', () => {
    expectVerdicts([
      ["ssh localhost bash -s <<'EOF'\nrm -rf ~\nEOF", 'hardline'],
      ["sudo -i <<'EOF'\nreboot\nEOF", 'hardline'],
      ["sudo su - <<'EOF'\nrm -rf /\nEOF", 'hardline'],
      ["ssh -T prod <<< 'redis-cli FLUSHALL'", 'dangerous'],
      ["su - postgres <<'EOF'\npsql -c 'DROP DATABASE app'\nEOF", 'dangerous'],
    ]);
    expect(reasons("ssh prod <<'EOF'\nuptime\nEOF")).toEqual([REASONS.remoteShell]);
  });

  it('a process substitution with known output, or a file the line wrote, is read as that text', () => {
    expectVerdicts([
      ["bash <(echo 'rm -rf ~')", 'hardline'],
      ["source <(printf 'shutdown -h now\\n')", 'hardline'],
      ["sh /dev/stdin <<< 'rm -rf ~'", 'hardline'],
      ["cat > /tmp/w.sh <<'EOF'\nrm -rf /\nEOF\nsh < /tmp/w.sh", 'hardline'],
      ["psql -f <(echo 'TRUNCATE events')", 'dangerous'],
      ["echo 'DROP TABLE x;' > /tmp/q.sql && psql -f /tmp/q.sql", 'dangerous'],
      ["printf 'DROP DATABASE shop;\\n' > drop.sql; mysql < drop.sql", 'dangerous'],
      ["psql -f <(echo 'SELECT 1')", 'safe'],
      ['diff <(sort a.txt) <(sort b.txt)', 'safe'],
    ]);
  });

  it('code attached to its option (`su -c\'…\'`), groups after time/coproc, and more shells', () => {
    expectVerdicts([
      ["su -c'rm -rf /'", 'hardline'],
      ["env -S'rm -rf ~'", 'hardline'],
      ["flock /tmp/l -c'reboot'", 'hardline'],
      ['coproc { reboot; }', 'hardline'],
      ['time { rm -rf ~; }', 'hardline'],
      ['time (rm -rf ~)', 'hardline'],
      ["ksh93 -c 'rm -rf ~'", 'hardline'],
      ["xonsh -c 'rm -rf ~'", 'hardline'],
      ['time { npm ci && npm test; }', 'safe'],
      ['time (make -j8)', 'safe'],
    ]);
  });

  it('variables whose value a program runs (GIT_SSH_COMMAND, PAGER, EDITOR, LESSOPEN, BASH_ENV)', () => {
    expectVerdicts([
      ["GIT_SSH_COMMAND='rm -rf ~' git fetch", 'hardline'],
      ["PAGER='rm -rf ~' man ls", 'hardline'],
      ["LESSOPEN='|rm -rf ~ %s' less notes.txt", 'hardline'],
      ["BASH_ENV=<(echo 'rm -rf ~') bash -c true", 'hardline'],
      ['GIT_SSH_COMMAND="ssh -i ~/.ssh/id_ed25519_deploy -o IdentitiesOnly=yes" git clone git@github.com:acme/app.git', 'safe'],
      ['VISUAL="code --wait" git commit', 'safe'],
      ["GIT_PAGER='less -R' git diff", 'safe'],
    ]);
  });

  it('git runs rebase --exec, submodule foreach, bisect run and filter-branch filters', () => {
    expectVerdicts([
      ["git rebase --exec 'rm -rf ~' HEAD~1", 'hardline'],
      ['git rebase -x reboot HEAD~2', 'hardline'],
      ["git submodule foreach 'rm -rf ~'", 'hardline'],
      ["git bisect run sh -c 'rm -rf ~'", 'hardline'],
      ["git filter-branch --tree-filter 'rm -rf ~' HEAD", 'hardline'],
      ["git rebase -i --exec 'npm test' main", 'safe'],
      ["git submodule foreach 'git pull origin main'", 'safe'],
      ['git bisect run npm test', 'safe'],
    ]);
  });

  it('package and version managers, watchers and dev shells run their command', () => {
    expectVerdicts([
      ["npx -c 'reboot'", 'hardline'],
      ["yarn exec 'rm -rf ~'", 'hardline'],
      ['pnpm exec rm -rf ~', 'hardline'],
      ['bun x rimraf ~', 'hardline'],
      ["nodemon --exec 'rm -rf ~'", 'hardline'],
      ["cargo watch -x run -s 'rm -rf ~'", 'hardline'],
      ['watchexec -- rm -rf ~', 'hardline'],
      ['nvm exec 20 rm -rf ~', 'hardline'],
      ['pixi run rm -rf ~', 'hardline'],
      ['nix develop -c rm -rf ~', 'hardline'],
      ['mise exec -- git push -f', 'dangerous'],
      ["npx -c 'eslint .'", 'safe'],
      ['pnpm exec vitest run', 'safe'],
      ['nix develop -c npm test', 'safe'],
      ['watchexec -e ts -- npm test', 'safe'],
      ['cargo watch -x test', 'safe'],
    ]);
  });

  it('find -maxdepth 0 hands -exec the starting point itself', () => {
    expect(verdict("find / -maxdepth 0 -exec sh -c 'rm -rf \"$1\"' _ {} \\;")).toBe('hardline');
    expect(verdict("find . -name '*.test.ts' -exec npx prettier --check {} +")).toBe('safe');
  });
});

describe('broad kills', () => {
  it('reads the signal however it is spelled; signal 0 only probes', () => {
    expectVerdicts([
      ['kill --signal=KILL 1', 'hardline'],
      ['kill -s KILL -1', 'hardline'],
      ['kill -s SIGKILL -- -1', 'hardline'],
      ['kill -1 -1', 'hardline'],
      ['kill -0 $PID 2>/dev/null && echo running', 'safe'],
      ['kill -0 $$', 'safe'],
    ]);
  });

  it('the pids this line owns ($!, $$, jobs -p) are not broad', () => {
    expectVerdicts([
      ['python3 -m http.server 8000 & PID=$!; sleep 2; kill $PID', 'safe'],
      ['node server.js & SERVER_PID=$!; npm test; kill -TERM "$SERVER_PID"', 'safe'],
      ['kill $(jobs -p)', 'safe'],
      ['kill $UNKNOWN_PID', 'dangerous'],
    ]);
  });

  it('every root process (pkill/killall/pgrep -u root with no pattern) is every process that matters', () => {
    expectVerdicts([
      ['pkill -u root', 'hardline'],
      ['killall -9 -u root', 'hardline'],
      ['pkill -SIGKILL -U 0', 'hardline'],
      ['pkill -KILL --euid root', 'hardline'],
      ['pgrep -u root | xargs kill -9', 'hardline'],
      ['pkill -9 -u root sshd', 'dangerous'],
    ]);
  });

  it('a pattern that matches every name is found by trying it', () => {
    expectVerdicts([
      ["pkill -9 '[a-z]*'", 'hardline'],
      ["pkill -KILL '\\w*'", 'hardline'],
      ["pkill -x -9 '.+'", 'hardline'],
      ["killall -s 9 -r '.*'", 'hardline'],
      ["kill -9 $(pgrep -v '^$')", 'hardline'],
      ["pkill -9 '^node$'", 'dangerous'],
      ["killall -9 '.*'", 'dangerous'],
    ]);
  });

  it('interpreters: signal first or pid first, SIGKILL to init, and kills of every listed /proc entry', () => {
    expectVerdicts([
      ["perl -e 'kill 9, -1'", 'hardline'],
      ["perl -e 'kill TERM => -1'", 'hardline'],
      ["ruby -e 'Process.kill(\"KILL\", -1)'", 'hardline'],
      ["ruby -e 'Process.kill(:KILL, 1)'", 'hardline'],
      ["node -e \"process.kill(1, 'SIGKILL')\"", 'hardline'],
      ["python3 -c 'import os, signal; os.kill(1, signal.SIGKILL)'", 'hardline'],
      ["python3 -c 'import psutil; [p.kill() for p in psutil.process_iter()]'", 'hardline'],
      ["python -c 'import os;[os.kill(int(p),9) for p in os.listdir(\"/proc\") if p.isdigit()]'", 'hardline'],
      ["python3 -c 'import psutil; [p.kill() for p in psutil.process_iter() if p.name() == \"node\"]'", 'dangerous'],
      ["python3 -c 'import os, signal; os.kill(1, signal.SIGTERM)'", 'dangerous'],
      ["perl -e 'kill 15, $pid'", 'dangerous'],
      ["python3 -c 'import os; print(len(os.listdir(\"/proc\")))'", 'safe'],
      ["python3 -c 'print(\"kill\", -1)'", 'safe'],
    ]);
  });

  it('interpreter exec: module aliases, argument lists with the home directory, program arguments as varargs', () => {
    expectVerdicts([
      ["python3 -c 'import subprocess as sp; sp.Popen([\"shutdown\", \"-h\", \"now\"])'", 'hardline'],
      ["python3 -c 'from subprocess import run; run([\"rm\", \"-rf\", \"/\"])'", 'hardline'],
      ["python3 -c \"import subprocess; subprocess.run(['sh', '-c', 'rm -rf ~'])\"", 'hardline'],
      ["node -e \"require('child_process').spawnSync('rm', ['-rf', require('os').homedir()])\"", 'hardline'],
      ["ruby -e \"system('rm', '-rf', Dir.home)\"", 'hardline'],
      ["perl -e 'system(\"rm\", \"-rf\", $ENV{HOME})'", 'hardline'],
      ["python3 -c 'import shutil, pathlib; shutil.rmtree(pathlib.Path.home())'", 'hardline'],
      ["node -e 'require(\"fs/promises\").rm(\"/etc\", {recursive: true, force: true})'", 'hardline'],
      ["python3 -c 'import subprocess as sp; sp.run([\"git\", \"status\"])'", 'dangerous'],
      ["python3 -c 'from shutil import which; print(which(\"git\"))'", 'safe'],
      ["node -e 'require(\"fs/promises\").rm(\"dist\", {recursive: true, force: true})'", 'safe'],
    ]);
  });

  it('pid 1 by name, and reordering or joining every pid', () => {
    expectVerdicts([
      ['kill -9 $(pidof systemd)', 'hardline'],
      ['kill -9 $(ps -u root -o pid=)', 'hardline'],
      ["systemctl kill --signal=KILL '*'", 'hardline'],
      ['kill -9 $(pgrep -x init)', 'hardline'],
      ["ps -e -o pid | awk 'NR>1' | xargs kill -9", 'hardline'],
      ['ps -e -o pid= | sort -rn | xargs kill -9', 'hardline'],
      ["kill -9 $(ps -e -o pid= | paste -sd' ')", 'hardline'],
      ['for pid in /proc/[0-9]*/; do kill -9 $(basename $pid); done', 'hardline'],
      ['kill $(pidof node)', 'dangerous'],
      ['pidof systemd', 'safe'],
      ['for d in /proc/[0-9]*/; do cat $d/comm; done', 'safe'],
    ]);
  });

  it('SIGKILL by a name pid 1 answers to is SIGKILL to init; a root-only catch-all is every root process', () => {
    expectVerdicts([
      ['pkill -9 systemd', 'hardline'],
      ['killall -KILL init', 'hardline'],
      ['pkill -9 -f /sbin/init', 'hardline'],
      ['killall -9 -u root -r .', 'hardline'],
      ['pkill -9 systemd-resolved', 'dangerous'],
      ['pkill systemd', 'dangerous'],
      ['pkill -9 -u dev systemd', 'dangerous'],
    ]);
  });

  it('fuser -k on the root directory reaches every process; on a port it asks', () => {
    expectVerdicts([
      ['fuser -k /', 'hardline'],
      ['fuser -km /', 'hardline'],
      ['fuser -k 8080/tcp', 'dangerous'],
      ['fuser -v /', 'safe'],
    ]);
  });

  it('filters that keep every pid keep the kill total (grep -v, sed 1d, ps -ax)', () => {
    expectVerdicts([
      ['kill -9 $(ps -e -o pid= | grep -v $$)', 'hardline'],
      ['ps -eo pid | sed 1d | xargs kill -9', 'hardline'],
      ['kill -9 $(ps -ax -o pid=)', 'hardline'],
      ['ps -ax | grep -i node', 'safe'],
    ]);
  });
});

describe('database statements', () => {
  it('getopt clusters give the statement to its option (psql -tAc, mysql -Bse)', () => {
    expectVerdicts([
      ["psql -tAc 'DROP TABLE users'", 'dangerous'],
      ["mysql -Bse 'DROP DATABASE shop'", 'dangerous'],
      ["psql -tAc 'SELECT version()'", 'safe'],
    ]);
  });

  it('a statement runs to its `;`: a WHERE on the next line counts, a BEGIN before it does not hide it', () => {
    expectVerdicts([
      ["psql -c \"DELETE FROM sessions\n  WHERE expires_at < now()\"", 'safe'],
      ["psql app -1 <<EOF\nBEGIN;\nDELETE FROM line_items;\nCOMMIT;\nEOF", 'dangerous'],
      ["mysql shop <<'SQL'\nUPDATE users\nSET email = NULL;\nSQL", 'dangerous'],
      ["psql app <<'SQL'\n\\c app\nDELETE FROM sessions;\nSQL", 'dangerous'],
      ["psql -c 'DELETE FROM t WHERE id = id'", 'dangerous'],
      ['todo add "delete old branches"', 'safe'],
    ]);
  });

  it('ClickHouse mutations, more DROP objects, Mongo empty filters and runCommand drops', () => {
    expectVerdicts([
      ["clickhouse-client --multiquery --query='ALTER TABLE events DELETE WHERE 1'", 'dangerous'],
      ["psql -c 'DROP SEQUENCE order_seq'", 'dangerous'],
      ["psql -c 'DROP FUNCTION refresh_stats()'", 'dangerous'],
      ["snowsql -q 'DROP WAREHOUSE etl_wh'", 'dangerous'],
      ["clickhouse-client -q 'DROP DICTIONARY geo'", 'dangerous'],
      ["influx -database metrics -execute 'DROP SERIES FROM cpu'", 'dangerous'],
      ["mongosh app --eval 'db.runCommand({ dropDatabase: 1 })'", 'dangerous'],
      ["mongosh --eval 'db.users.updateMany({}, { $set: { active: false } })'", 'dangerous'],
      ["mongosh --eval 'db.logs.remove({}, { justOne: false })'", 'dangerous'],
      ["mongosh --eval 'db.users.find({}).limit(5)'", 'safe'],
    ]);
  });

  it('more clients and stores: ODBC shells, influx query, bulk deletes, memcached, ZooKeeper, databases over HTTP', () => {
    expectVerdicts([
      ["isql -b DSN <<< 'DROP TABLE x'", 'dangerous'],
      ["influx query 'drop measurement cpu'", 'dangerous'],
      ["mongosh --eval 'db.users.bulkWrite([{ deleteMany: { filter: {} } }])'", 'dangerous'],
      ['memcflush --servers=localhost', 'dangerous'],
      ['zkCli.sh -server zk:2181 deleteall /app', 'dangerous'],
      ["curl -X DELETE 'http://couch:5984/mydb'", 'dangerous'],
      ['curl -X DELETE localhost:6333/collections/docs', 'dangerous'],
      ["curl -X POST 'http://localhost:8983/solr/core/update?commit=true' -d '<delete><query>*:*</query></delete>'", 'dangerous'],
      ['zkCli.sh -server zk:2181 ls /app', 'safe'],
      ['curl -s http://couch:5984/mydb', 'safe'],
      ["mongosh --eval 'db.users.findOne({})'", 'safe'],
    ]);
  });

  it('graph deletes by label, migration tasks that drop, and stopping the database server', () => {
    expectVerdicts([
      ["cypher-shell 'MATCH (n:User) DETACH DELETE n'", 'dangerous'],
      ["cypher-shell 'MATCH ()-[r]->() DELETE r'", 'dangerous'],
      ["cypher-shell 'MATCH (n:User {id: 1}) DELETE n'", 'safe'],
      ['bin/rails db:schema:load', 'dangerous'],
      ['php artisan migrate:refresh --seed', 'dangerous'],
      ['python manage.py migrate shop zero', 'dangerous'],
      ['python manage.py migrate', 'safe'],
      ['pg_dropcluster 16 main --stop', 'dangerous'],
      ['pg_ctl -D /var/lib/postgresql/data stop -m immediate', 'dangerous'],
      ['mysqladmin -uroot shutdown', 'dangerous'],
      ['mysqladmin -uroot status', 'safe'],
    ]);
  });

  it('restores that drop first', () => {
    expectVerdicts([
      ['pg_restore --clean --if-exists -d prod backup.dump', 'dangerous'],
      ['pg_restore -Fc -d dev backup.dump', 'safe'],
      ['mongorestore --drop dump/', 'dangerous'],
    ]);
  });
});

describe('security controls', () => {
  it('firewalls: nft as one argument or a script, firewalld value forms, accept-everything rules', () => {
    expectVerdicts([
      ["nft 'flush ruleset'", 'dangerous'],
      ["echo 'flush ruleset' | nft -f -", 'dangerous'],
      ['nft add rule inet filter input accept', 'dangerous'],
      ['nft list ruleset', 'safe'],
      ['firewall-cmd --set-default-zone trusted', 'dangerous'],
      ['firewall-cmd --permanent --zone=trusted --add-interface=eth0', 'dangerous'],
      ['firewall-cmd --get-default-zone', 'safe'],
      ['iptables -I INPUT 1 -j ACCEPT', 'dangerous'],
      ['iptables -w -P INPUT ACCEPT', 'dangerous'],
      ['iptables -t nat -F', 'dangerous'],
      ['ebtables -F', 'dangerous'],
      ['iptables -S', 'safe'],
      ['ufw allow from any', 'dangerous'],
      ['netsh firewall set opmode disable', 'dangerous'],
    ]);
    expect(reasons('iptables -I INPUT -p tcp --dport 22 -j ACCEPT')).not.toContain(REASONS.disableSecurity);
  });

  it('init scripts are their services', () => {
    expect(reasons('/etc/init.d/ufw stop')).toContain(REASONS.disableSecurity);
    expect(verdict('/etc/init.d/nginx status')).toBe('safe');
    expect(verdict('service apparmor teardown')).toBe('dangerous');
  });

  it('macOS, Windows and boot settings that switch a protection off', () => {
    expectVerdicts([
      ['defaults write com.apple.LaunchServices LSQuarantine -bool false', 'dangerous'],
      ['defaults write /Library/Preferences/com.apple.alf globalstate -int 0', 'dangerous'],
      ['defaults read com.apple.LaunchServices LSQuarantine', 'safe'],
      ['/usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off', 'dangerous'],
      ['/usr/libexec/ApplicationFirewall/socketfilterfw --getglobalstate', 'safe'],
      ['bcdedit /set testsigning on', 'dangerous'],
      ['bcdedit /set testsigning off', 'safe'],
      ['bcdedit.exe /set {default} recoveryenabled No', 'dangerous'],
      ['powershell -Command "Set-MpPreference -ExclusionProcess node.exe"', 'dangerous'],
      ["pwsh -c 'Set-MpPreference -EnableControlledFolderAccess Disabled'", 'dangerous'],
      ["pwsh -c 'Get-MpPreference | Select-Object DisableRealtimeMonitoring'", 'safe'],
      ['grubby --update-kernel=ALL --args="apparmor=0"', 'dangerous'],
      ['sysctl -w fs.protected_symlinks=0', 'dangerous'],
      ['sysctl kernel.randomize_va_space', 'safe'],
      ['auditctl -e0', 'dangerous'],
      ['fail2ban-client stop', 'dangerous'],
      ['fail2ban-client status', 'safe'],
      ['rcctl disable pf', 'dangerous'],
    ]);
  });

  it("Hearth's own approvals: --yolo, and in-place edits of its config", () => {
    expectVerdicts([
      ['hearth --yolo run "clean up the repo"', 'dangerous'],
      ["yq -i '.approvals.mode = \"off\"' ~/.hearth/config.yaml", 'dangerous'],
      ['hearth run "fix the failing test"', 'safe'],
      ["yq -i '.version = \"2\"' docker-compose.yml", 'safe'],
      ['sort -o /etc/hosts /etc/hosts', 'dangerous'],
      ['sort -u names.txt -o names.txt', 'safe'],
    ]);
  });
});

/**
 * Session 3 (writer cmd10a, SPLITS.md): readings of the shell and wrapper rows the rules lacked. Each block
 * failed before its fix; the neighbours keep their verdict.
 */
describe('wrappers and readings, session 3', () => {
  it('a trap handler is read once, at the end of the line: what it does does not change the commands after it', () => {
    expectVerdicts([
      // Read at registration, `cd /` moved the line to / and `rm -rf ./build` read as `rm -rf /build`.
      ['trap "cd /" EXIT; rm -rf ./build', 'safe'],
      // …and the handler's file and variable were taken as set before the commands that follow.
      ["trap 'echo reboot > r.sh' EXIT; sh r.sh", 'safe'],
      ["trap 'D=/' EXIT; rm -rf \"$D\"", 'dangerous'],
      // Still read: at exit it runs, with the functions the line defined later.
      ["trap 'rm -rf ~' EXIT", 'hardline'],
      ['trap cleanup EXIT; cleanup() { rm -rf ~; }', 'hardline'],
      ["trap 'kill $(jobs -p)' EXIT", 'safe'],
    ]);
    // Set inside `ssh host '…'`, it runs there: remote, and so irreversible but not a local wipe.
    expect(classifyCommand("ssh prod \"trap 'rm -rf /tmp/x' EXIT\"", ctx).irreversible).toBe(true);
  });

  it("xargs -a FILE reads its arguments from the file: a `<(…)` with known output, or one the line wrote", () => {
    expectVerdicts([
      ['xargs -a <(echo /) rm -rf', 'hardline'],
      ["printf '/\\n' > l.txt; xargs -a l.txt rm -rf", 'hardline'],
      ['xargs -a <(echo build) rm -rf', 'safe'],
      ['xargs -a urls.txt -n1 curl -sO', 'safe'],
    ]);
  });

  it('capsh hands what follows `--` to bash; gdb runs `shell CMD` and `!CMD` given with -ex', () => {
    expectVerdicts([
      ["capsh -- -c 'rm -rf /'", 'hardline'],
      ["capsh --caps=cap_net_raw+ep -- -c 'ls'", 'safe'],
      ["gdb -batch -ex 'shell reboot'", 'hardline'],
      ["gdb -ex '!rm -rf ~' -ex q", 'hardline'],
      ["gdb -batch -ex 'bt' ./a.out core", 'safe'],
    ]);
  });

  it("make's recipes of the goals that run are shell, when the makefile's text is known", () => {
    expectVerdicts([
      ["make -f - <<< $'all:\\n\\trm -rf /'", 'hardline'],
      ["printf 'x:\\n\\treboot\\n' > m.mk; make -f m.mk x", 'hardline'],
      // Only the default goal and what it depends on run, not every target in the file.
      ["make -f - <<< $'all: build\\nbuild:\\n\\t@echo hi\\nclean:\\n\\trm -rf /'", 'safe'],
      ['make -j"$(nproc)" check', 'safe'],
      ['make clean', 'safe'],
    ]);
  });

  it("a wrapper's command reads the wrapper's stdin (`echo 'DROP …' | ssh host psql`)", () => {
    expectVerdicts([
      ["echo 'DROP TABLE audit_log;' | ssh localhost psql app", 'dangerous'],
      ["echo 'SELECT 1;' | ssh localhost psql app", 'safe'],
      ["echo 'rm -rf /' | sh -c cat", 'safe'],
    ]);
  });

  it('a container reaches the host through a bind mount of a host path, or nsenter into pid 1 with the host pids', () => {
    expectVerdicts([
      ['docker run --rm -v /:/host alpine rm -rf /host/*', 'hardline'],
      ['docker run --mount type=bind,source=/,target=/mnt alpine rm -rf /mnt/etc', 'hardline'],
      ['docker run --rm -v /home/dev:/h alpine rm -rf /h', 'hardline'],
      ['docker run --privileged --pid=host -it alpine nsenter -t 1 -m -u -n -i reboot', 'hardline'],
      // Without the host's pids, pid 1 is the container's own init.
      ['docker run --privileged alpine nsenter -t 1 -m reboot', 'dangerous'],
      ['docker run --rm alpine rm -rf /', 'dangerous'],
      ['docker run --rm -v /:/host alpine ls /host', 'dangerous'],
    ]);
  });

  it('`${PWD%/project}` removes a literal suffix with slashes in it', () => {
    expectVerdicts([
      ['rm -rf "${PWD%/project}"', 'hardline'],
      ['rm -rf "${PWD%/build}/build"', 'safe'],
    ]);
  });
});
